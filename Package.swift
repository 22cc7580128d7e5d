// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Vignette",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Vignette", targets: ["Vignette"]),
        .library(name: "VignetteCodecs", targets: ["VignetteCodecs"]),
        .executable(name: "vignette", targets: ["VignetteCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CVips", path: "CSystemShims/CVips", pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "CSystemShims/CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CHeif", path: "CSystemShims/CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        .target(
            name: "CImageShims", dependencies: ["CVips", "CHeif"],
            path: "CSystemShims/CImageShims"),
        .target(
            name: "VignetteCodecs",
            dependencies: ["CVips", "CWebP", "CHeif", "CImageShims"]),
        .target(
            name: "Vignette",
            dependencies: [
                "VignetteCodecs",
                // GLib's SHA-256 (g_compute_checksum) names disk-cache files; libvips links GLib anyway.
                "CVips",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "VignetteCLI",
            dependencies: ["Vignette", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(
            name: "VignetteBench", dependencies: ["Vignette"],
            path: "Benchmarks/Sources/VignetteBench"),
        .testTarget(name: "VignetteCodecsTests", dependencies: ["VignetteCodecs"]),
        .testTarget(name: "VignetteTests", dependencies: ["Vignette", "DataCacheWriter"]),
        // A child process for the disk-cache crash test: writes entries until it is killed.
        .executableTarget(name: "DataCacheWriter", dependencies: ["Vignette"], path: "Tests/DataCacheWriter"),
        .testTarget(name: "VignetteCLITests", dependencies: ["VignetteCodecs", "VignetteCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
