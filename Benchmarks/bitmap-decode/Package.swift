// swift-tools-version:6.1
// The Vignette side of Benchmarks/bitmap-decode.sh: a package of its own on VignetteCodecs alone,
// so that its release build compiles the codecs and nothing of the server's stack.
import PackageDescription

let package = Package(
    name: "BitmapDecodeBench",
    dependencies: [
        .package(name: "Vignette", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "BitmapDecodeBench",
            dependencies: [.product(name: "VignetteCodecs", package: "Vignette")]),
    ],
    swiftLanguageModes: [.v6]
)
