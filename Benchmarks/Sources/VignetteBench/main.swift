import Foundation
import Vignette

// VignetteBench: the in-process side of Benchmarks/run.sh.
//
//   VignetteBench jpeg-task --input FILE --seconds S [--method shrinkOnLoad|vipsThumbnail] [--output OUT.jpg]
//   VignetteBench png-task --input FILE --seconds S [--compression Z] [--output OUT.png]
//   VignetteBench encode --input FILE --format heic|avif|webp|jpeg|png [--quality Q] [--output OUT]
//   VignetteBench dhash A B
//   VignetteBench encoder-speeds --input FILE [--quality Q] [--runs N]
//   VignetteBench pipeline --input FILE [--hits N] [--runs N]
//   VignetteBench http --input FILE --small FILE [--runs N]
//   VignetteBench shared-cache --input FILE --redis redis://HOST:PORT [--runs N] [--distinct N]
//   VignetteBench versions
//
// Each prints one JSON line on stdout; failures print one line on stderr and exit 1.

func printError(_ message: String) {
    FileHandle.standardError.write(Data("VignetteBench: \(message)\n".utf8))
}

let usage = """
    usage: VignetteBench \(JPEGTask.usage)
           VignetteBench \(EncodeOnce.usage)
           VignetteBench \(DHash.usage)
           VignetteBench \(EncoderSpeeds.usage)
           VignetteBench \(PipelineBench.usage)
           VignetteBench \(HTTPBench.usage)
           VignetteBench \(SharedCacheBench.usage)
           VignetteBench versions
    environment: VIGNETTE_THREADS=N sets libvips' threads per image (ImagingRuntime.threadsPerImage)
    """

let arguments = CommandLine.arguments.dropFirst()
guard let command = arguments.first else {
    printError("missing subcommand\n\(usage)")
    exit(1)
}

do {
    let rest = arguments.dropFirst()
    Runtime.applyJPEGDecoderSwitches()
    let output: String
    switch command {
    case "jpeg-task":
        output = try JPEGTask.run(rest)
    case "png-task":
        output = try JPEGTask.run(rest, defaultFormat: "png")
    case "encode":
        output = try EncodeOnce.run(rest)
    case "dhash":
        output = try DHash.run(rest)
    case "encoder-speeds":
        output = try EncoderSpeeds.run(rest)
    case "pipeline":
        output = try await PipelineBench.run(rest)
    case "http":
        output = try await HTTPBench.run(rest)
    case "shared-cache":
        output = try await SharedCacheBench.run(rest)
    case "versions":
        var line = JSONLine()
        for (name, version) in ImagingRuntime.libraryVersions.sorted(by: { $0.key < $1.key }) {
            line.add(name, version)
        }
        line.add("threads_per_image", try Runtime.applyThreadSetting())
        output = line.text
    case "-h", "--help", "help":
        print(usage)
        exit(0)
    default:
        throw UsageError("unknown subcommand \(command)\n\(usage)")
    }
    print(output)
} catch let error as ImagingError {
    printError("\(error.kind.rawValue): \(error.message)")
    exit(1)
} catch {
    printError("\(error)")
    exit(1)
}
