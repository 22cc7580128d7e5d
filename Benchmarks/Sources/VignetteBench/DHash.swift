import Foundation
import Vignette

/// `dhash A B`: the Hamming distance between the two images' 64-bit dHashes.
enum DHash {
    static let usage = "dhash A B"

    static func run(_ arguments: ArraySlice<String>) throws -> String {
        let parsed = try Arguments(arguments, known: [])
        guard parsed.positionals.count == 2 else { throw UsageError("dhash takes exactly two files") }
        let decoder = ImageDecoder(limits: .untrusted)
        let first = try decoder.decode(fileAt: parsed.positionals[0]).perceptualHash()
        let second = try decoder.decode(fileAt: parsed.positionals[1]).perceptualHash()
        var line = JSONLine()
        line.add("a", parsed.positionals[0])
        line.add("b", parsed.positionals[1])
        line.add("hash_a", first.description)
        line.add("hash_b", second.description)
        line.add("distance", first.distance(to: second))
        return line.text
    }
}
