// swift-tools-version:6.1
// A Vapor application serving thumbnails with VignetteVapor (built by `make test`).
import PackageDescription

let package = Package(
    name: "VaporThumbnails",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Vignette", path: "../..", traits: ["Vapor"]),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    ],
    targets: [
        .executableTarget(
            name: "VaporThumbnails",
            dependencies: [
                .product(name: "Vignette", package: "Vignette"),
                .product(name: "VignetteServer", package: "Vignette"),
                .product(name: "VignetteVapor", package: "Vignette"),
                .product(name: "Vapor", package: "vapor"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
