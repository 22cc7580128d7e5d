// swift-tools-version:6.1
import PackageDescription

// Licence: Apache-2.0 (LICENSE).
// The core (`Vignette`, `VignetteCodecs`) depends on swift-log, swift-metrics and
// swift-distributed-tracing alone. Everything else sits behind a package trait: every target
// dependency on another package names the trait that needs it, so a package that enables none of
// them does not resolve those packages at all. The traits (docs/library.md lists what each brings):
//
//   HTTP         VignetteHTTP: http(s):// and s3:// sources (AsyncHTTPClient, SwiftNIO)
//   Server       VignetteServer: the imgproxy-compatible server with no web framework (one answer
//                path, admission, sources, Prometheus metrics); enables HTTP
//   Hummingbird  VignetteHummingbird: the server on Hummingbird 2 (swift-service-lifecycle); enables Server
//   Vapor        VignetteVapor: the same routes mounted in a Vapor application; enables Server
//   CLI          the `vignette` executable (swift-argument-parser, OpenTelemetry's OTLP exporter);
//                enables Hummingbird
//   Video        video posters in VignetteCodecs: FFmpeg's libavformat/libavcodec/libswscale
//                (Debian's -dev packages), a system library needed only with the trait, opened
//                (dlopen) when the first video arrives, not at process start
//   Faces        face detection for crops that keep people (`Gravity.faces`): OpenCV's YuNet
//                detector (Debian's libopencv-objdetect-dev to build, libopencv-objdetect406 to
//                run), loaded when the first detector is made, not at process start
//
// VignetteImgproxy (imgproxy's URL grammar: options, info options, signatures, URLs) needs only the
// core and no trait. No trait is on by default. This repository's own builds (the Makefile) enable them all.
let http: Set<String> = ["HTTP"]
let server: Set<String> = ["Server"]
let hummingbird: Set<String> = ["Hummingbird"]
let vapor: Set<String> = ["Vapor"]
let cli: Set<String> = ["CLI"]
let video: Set<String> = ["Video"]
let faces: Set<String> = ["Faces"]

let package = Package(
    name: "Vignette",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Vignette", targets: ["Vignette"]),
        .library(name: "VignetteCodecs", targets: ["VignetteCodecs"]),
        .library(name: "VignetteImgproxy", targets: ["VignetteImgproxy"]),
        .library(name: "VignetteHTTP", targets: ["VignetteHTTP"]),
        .library(name: "VignetteServer", targets: ["VignetteServer"]),
        .library(name: "VignetteHummingbird", targets: ["VignetteHummingbird"]),
        .library(name: "VignetteVapor", targets: ["VignetteVapor"]),
        .library(name: "VignetteRedis", targets: ["VignetteRedis"]),
        .executable(name: "vignette", targets: ["VignetteCLI"]),
    ],
    traits: [
        .trait(name: "HTTP", description: "VignetteHTTP: http(s):// and s3:// sources through AsyncHTTPClient."),
        .trait(
            name: "Server", description: "VignetteServer: the imgproxy-compatible server, no web framework.",
            enabledTraits: ["HTTP"]),
        .trait(
            name: "Hummingbird", description: "VignetteHummingbird: the imgproxy-compatible server on Hummingbird 2.",
            enabledTraits: ["Server"]),
        .trait(name: "Vapor", description: "VignetteVapor: the server's routes mounted in a Vapor application.", enabledTraits: ["Server"]),
        .trait(name: "CLI", description: "The vignette executable: commands, serve, OTLP trace export.", enabledTraits: ["Hummingbird"]),
        .trait(name: "Video", description: "Video posters (MP4, MOV, WebM, MKV…) through FFmpeg's libavformat and libavcodec."),
        .trait(name: "Faces", description: "Crops that keep faces, through OpenCV's YuNet detector (cv::FaceDetectorYN)."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // The core's three.
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Behind traits.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // OTLP export of the server's traces (`vignette serve --otel-endpoint`); over HTTP only, so
        // the gRPC exporter and its dependencies are not built.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CVignetteVips", path: "CSystemShims/CVignetteVips", pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CVignetteGLib", path: "CSystemShims/CVignetteGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(
            name: "CVignetteWebP", path: "CSystemShims/CVignetteWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            // libheif's headers only: nothing is linked. CVignetteLibraryLoader opens libheif with
            // dlopen when the first HEIF or AVIF is read or written.
            name: "CVignetteHeif", path: "CSystemShims/CVignetteHeif",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CVignetteHiredis", path: "CSystemShims/CVignetteHiredis", pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]),
        .systemLibrary(
            name: "CVignetteTurboJPEG", path: "CSystemShims/CVignetteTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CVignetteLcms2", path: "CSystemShims/CVignetteLcms2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CVignetteDeflate", path: "CSystemShims/CVignetteDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // Behind the Video trait: a build without it needs no FFmpeg header. FFmpeg's headers (in
        // the compiler's own include path on Debian), nothing linked: CVignetteLibraryLoader opens
        // the libraries with dlopen when the first video arrives, so no process pays for them at start.
        .systemLibrary(
            name: "CVignetteFFmpeg", path: "CSystemShims/CVignetteFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        // Trampolines for libheif's functions (and FFmpeg's, with the Video trait), the libraries
        // opened with dlopen on first use, so that a process pays for neither at start.
        .target(
            name: "CVignetteLibraryLoader", path: "CSystemShims/CVignetteLibraryLoader",
            exclude: ["ffmpeg_functions.h", "heif_functions.h", "trampoline.h"],
            cSettings: [.define("VGN_VIDEO", .when(traits: video))]),
        .target(
            name: "CVignetteImageShims", dependencies: ["CVignetteVips", "CVignetteHeif", "CVignetteLibraryLoader"],
            path: "CSystemShims/CVignetteImageShims"),
        // Vignette's own Lanczos-3 reducer (AVX2 chosen at run time, scalar fallback); no libvips.
        .target(name: "CVignetteResize", path: "CSystemShims/CVignetteResize"),
        // SSIMULACRA 2.1, the quality search's metric, written here from its published description
        // (AVX2+FMA chosen at run time, scalar fallback); no libvips.
        .target(name: "CVignetteMetrics", path: "CSystemShims/CVignetteMetrics", linkerSettings: [.linkedLibrary("m")]),
        // The bottom module every other depends on: the lock, the system-call funnel, atomic files,
        // digests (GLib's, which libvips links already).
        .target(name: "VignetteSupport", dependencies: ["CVignetteGLib"]),
        // JPEG thumbnails at 1/8 from each block's DC only: a DC-only entropy decoder for
        // sequential files, a DC-scans-only stream for progressive ones; no libjpeg calls.
        .target(name: "CVignetteJPEGDC", path: "CSystemShims/CVignetteJPEGDC"),
        // Behind the Faces trait: cv::FaceDetectorYN behind a C interface, OpenCV opened with dlopen
        // on first use. Debian keeps OpenCV's headers in /usr/include/opencv4, which a target may
        // not name; `opencv-headers/opencv2` is a link to them.
        .target(
            name: "CVignetteFaces", path: "CSystemShims/CVignetteFaces", exclude: ["opencv-headers"],
            cxxSettings: [.headerSearchPath("opencv-headers")]),
        .target(
            name: "VignetteCodecs",
            dependencies: [
                "VignetteSupport", "CVignetteVips", "CVignetteWebP", "CVignetteHeif", "CVignetteImageShims", "CVignetteResize", "CVignetteTurboJPEG", "CVignetteLcms2", "CVignetteDeflate",
                "CVignetteJPEGDC", "CVignetteMetrics", .target(name: "CVignetteFFmpeg", condition: .when(traits: video)),
                "CVignetteLibraryLoader",
                .target(name: "CVignetteFaces", condition: .when(traits: faces)),
            ]),
        .target(
            name: "Vignette",
            dependencies: [
                "VignetteSupport",
                "VignetteCodecs",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .target(
            name: "VignetteHTTP",
            dependencies: [
                "VignetteSupport",
                "Vignette",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: http)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The shared result cache on Redis (hiredis), kept apart so the core builds without it.
        // It needs no other package, so no trait: it is built only for those who use the product.
        .target(
            name: "VignetteRedis",
            dependencies: [
                "VignetteSupport",
                "Vignette", "VignetteCodecs", "CVignetteHiredis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]),
        // imgproxy's URL grammar: processing and info options, signatures, whole URLs, read into
        // the core's recipes. Light: the core alone, no trait.
        .target(name: "VignetteImgproxy", dependencies: ["VignetteSupport", "Vignette"]),
        // The imgproxy-compatible server with no web framework in it: the one answer path
        // (ImageResponder), sources, admission, metrics, configuration. VignetteHummingbird and
        // VignetteVapor run it.
        .target(
            name: "VignetteServer",
            dependencies: [
                "VignetteSupport", "Vignette", "VignetteCodecs", "VignetteImgproxy", "VignetteHTTP", "VignetteRedis",
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: server)),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "VignetteHummingbird",
            dependencies: [
                "VignetteSupport", "Vignette", "VignetteServer",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: hummingbird)),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: hummingbird)),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: hummingbird)),
            ]),
        .target(
            name: "VignetteVapor",
            dependencies: [
                "Vignette", "VignetteServer",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: vapor)),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        .executableTarget(
            name: "VignetteCLI",
            dependencies: [
                "VignetteSupport",
                "Vignette", "VignetteImgproxy", "VignetteHTTP", "VignetteServer", "VignetteHummingbird", "VignetteRedis",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: cli)),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: cli)),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: cli)),
            ]),

        // The examples, the benchmark harness and the fuzz targets, built here with the rest so
        // that `make test` builds the dependency graph once. examples/*/Package.swift are the same
        // sources as a user's package of their own; Scripts/fuzz.sh builds the fuzz targets again
        // with libFuzzer and AddressSanitizer.
        .executableTarget(
            name: "VaporThumbnails",
            dependencies: ["Vignette", "VignetteServer", "VignetteVapor", .product(name: "Vapor", package: "vapor", condition: .when(traits: vapor))],
            path: "examples/vapor-thumbnails/Sources/VaporThumbnails"),
        .executableTarget(
            name: "HummingbirdThumbnails",
            dependencies: [
                "Vignette", "VignetteServer", "VignetteHummingbird",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: hummingbird)),
            ],
            path: "examples/hummingbird-thumbnails/Sources/HummingbirdThumbnails"),
        .executableTarget(
            name: "VignetteBench", dependencies: ["LoopbackHTTPServer", "Vignette", "VignetteHTTP", "VignetteRedis"],
            path: "Benchmarks/Sources/VignetteBench"),
        .target(name: "FuzzSupport", path: "Fuzz/Sources/FuzzSupport"),
        .executableTarget(name: "FuzzProbe", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzProbe"),
        .executableTarget(name: "FuzzThumbnail", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzThumbnail"),
        .executableTarget(name: "FuzzGainMap", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzGainMap"),
        // SVG sanitised and rendered (librsvg), PDF pages (poppler): seeds by Fuzz/make-vector-seeds.sh.
        .executableTarget(name: "FuzzSVG", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzSVG"),
        .executableTarget(name: "FuzzPDF", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzPDF"),
        .executableTarget(name: "FuzzProgressive", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzProgressive"),
        // Differential: the JPEG DC paths against libjpeg-turbo at 1/8 (JPEGDC's Fuzzing SPI).
        .executableTarget(name: "FuzzJPEGDC", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzJPEGDC"),
        // The video poster path (FFmpeg through VignetteCodecs); seeds by Fuzz/make-video-seeds.sh.
        .executableTarget(name: "FuzzVideo", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzVideo"),
        .executableTarget(name: "FuzzImgproxyOptions", dependencies: ["FuzzSupport", "VignetteSupport", "Vignette", "VignetteImgproxy"], path: "Fuzz/Sources/FuzzImgproxyOptions"),
        .executableTarget(name: "FuzzMetadata", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzMetadata"),
        // Vignette's own BMP and ICO/CUR decoders (seeds: Fixtures/bmpsuite, Fixtures/icons).
        .executableTarget(name: "FuzzBMP", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzBMP"),
        .executableTarget(name: "FuzzICO", dependencies: ["FuzzSupport", "VignetteCodecs"], path: "Fuzz/Sources/FuzzICO"),
        .executableTarget(
            name: "FuzzHTTPHeaders",
            dependencies: ["FuzzSupport", "VignetteHTTP", .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: http))],
            path: "Fuzz/Sources/FuzzHTTPHeaders"),

        // The tests.
        // littleCMS itself for the colour tests' reference transforms.
        .testTarget(name: "VignetteCodecsTests", dependencies: ["VignetteCodecs", "ChildProcess", "CVignetteLcms2"]),
        .testTarget(
            name: "VignetteTests",
            dependencies: [
                "VignetteSupport",
                "Vignette", "VignetteImgproxy", "DataCacheWriter", "ChildProcess", "TestTiming", .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["GainMap/ultrahdr_reference.py"]),
        .testTarget(
            name: "VignetteVaporTests",
            dependencies: [
                "VignetteVapor", "VignetteServer", "VignetteImgproxy", "Vignette", "LoopbackHTTPClient",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: vapor)),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                // Doors/: one table of configurations × requests through the server's three doors
                // (`vignette serve`'s application, Hummingbird's addRoutes, this mount), answers alike.
                "VignetteHummingbird",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: hummingbird)),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: hummingbird)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: http)),
            ]),
        .testTarget(
            name: "VignetteServerTests",
            dependencies: [
                "VignetteSupport",
                "VignetteHummingbird", "VignetteServer", "VignetteImgproxy", "LoopbackHTTPServer", "LoopbackHTTPClient", "RedisTestServer", "S3TestServer", "TestTiming",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: http)),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: hummingbird)),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: hummingbird)),
            ]),
        // A child process for the disk-cache crash test: writes entries until it is killed.
        .executableTarget(name: "DataCacheWriter", dependencies: ["Vignette"], path: "Tests/DataCacheWriter"),
        .testTarget(
            name: "VignetteHTTPTests",
            dependencies: [
                "VignetteSupport", "VignetteHTTP", "LoopbackHTTPServer", "TestTiming", "S3TestServer", "ChildProcess",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // botocore's signatures, the reference the SigV4 tests compare with (run with .venv-test's Python).
            exclude: ["S3/sigv4_reference.py"]),
        .testTarget(
            name: "VignetteRedisTests",
            dependencies: [
                "VignetteSupport",
                "VignetteRedis", "RedisTestServer", "TestTiming", .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        // A redis-server of the tests' own on 127.0.0.1 (a free port), started and stopped by them.
        .target(name: "RedisTestServer", dependencies: ["ChildProcess"], path: "Tests/RedisTestServer"),
        // moto's S3-compatible server on 127.0.0.1 (a free port), filled and started by the tests
        // with the Python of .venv-test (Scripts/test-venv.sh).
        .target(name: "S3TestServer", dependencies: ["ChildProcess", "TestTiming"], path: "Tests/S3TestServer", exclude: ["s3_test_server.py"]),
        // `eventually`, the tests' one wait for something to happen, longer under a sanitizer.
        .target(name: "TestTiming", path: "Tests/TestTiming"),
        // Child processes for the tests: posix_spawn with no inherited descriptors, ended by waitid,
        // collected and time-limited on a thread of their own (not Foundation's Process).
        .target(name: "ChildProcess", path: "Tests/ChildProcess"),
        .testTarget(
            name: "VignetteCLITests",
            dependencies: [
                "Vignette", "VignetteCodecs", "VignetteImgproxy", "VignetteCLI", "LoopbackHTTPServer", "RedisTestServer", "S3TestServer", "ChildProcess",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: http)),
            ]),
        // GETs to a server of the tests' own on 127.0.0.1 (AsyncHTTPClient), and what they gave.
        .target(
            name: "LoopbackHTTPClient",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: http)),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: http)),
            ],
            path: "Tests/LoopbackHTTPClient"),
        // An HTTP/1.1 server on 127.0.0.1 for the tests and the HTTP benchmark: ranges, validators,
        // stalls, cut-offs, dribbling.
        .target(
            name: "LoopbackHTTPServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: http)),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: http)),
            ],
            path: "Tests/LoopbackHTTPServer"),
    ],
    swiftLanguageModes: [.v6]
)
