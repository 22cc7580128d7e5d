// swift-tools-version:6.0
import PackageDescription

// The benchmark harness (VignetteBench), a package of its own beside Vignette's so that building
// the library does not build it. Benchmarks/run.sh and jpeg-dc.sh build it in release mode.
let package = Package(
    name: "VignetteBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Vignette", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "VignetteBench",
            dependencies: [
                "LoopbackHTTPServer",
                .product(name: "Vignette", package: "Vignette"),
                .product(name: "VignetteHTTP", package: "Vignette"),
                .product(name: "VignetteRedis", package: "Vignette"),
            ]),
        // The tests' HTTP/1.1 server on 127.0.0.1 (Sources/LoopbackHTTPServer links to
        // Tests/LoopbackHTTPServer: one server for the tests and the HTTP benchmark).
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
