// swift-tools-version:6.0
import PackageDescription

// The libFuzzer targets, a package of their own beside Vignette's so that building the library
// builds none of them. Scripts/fuzz.sh builds them with -sanitize=fuzzer,address and -DFUZZING;
// built plainly, each is a tool that replays saved inputs through its target.
let package = Package(
    name: "VignetteFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Vignette", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzProbe", dependencies: ["FuzzSupport", .product(name: "VignetteCodecs", package: "Vignette")]),
        .executableTarget(name: "FuzzThumbnail", dependencies: ["FuzzSupport", .product(name: "VignetteCodecs", package: "Vignette")]),
        .executableTarget(name: "FuzzProgressive", dependencies: ["FuzzSupport", .product(name: "VignetteCodecs", package: "Vignette")]),
        // Differential: the JPEG DC paths against libjpeg-turbo at 1/8 (JPEGDC's Fuzzing SPI).
        .executableTarget(name: "FuzzJPEGDC", dependencies: ["FuzzSupport", .product(name: "VignetteCodecs", package: "Vignette")]),
        .executableTarget(name: "FuzzImgproxyOptions", dependencies: ["FuzzSupport", .product(name: "Vignette", package: "Vignette")]),
        .executableTarget(
            name: "FuzzHTTPHeaders",
            dependencies: [
                "FuzzSupport", .product(name: "VignetteHTTP", package: "Vignette"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
