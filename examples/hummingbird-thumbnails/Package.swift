// swift-tools-version:6.1
// A Hummingbird application serving thumbnails with VignetteServer's helper (built by `make test`).
import PackageDescription

let package = Package(
    name: "HummingbirdThumbnails",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Vignette", path: "../..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdThumbnails",
            dependencies: [
                .product(name: "Vignette", package: "Vignette"),
                .product(name: "VignetteServer", package: "Vignette"),
                .product(name: "VignetteHummingbird", package: "Vignette"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
