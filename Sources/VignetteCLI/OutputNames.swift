#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Output file names (without the new extension) for a list of inputs.
enum OutputNames {
    /// `photo.jpg` → `photo`; but when two inputs share a name without extension (`a.gif`, `a.webp`),
    /// each keeps its extension (`a.gif`, `a.webp`) so that neither overwrites the other, whatever
    /// order they come in.
    static func stems(for inputs: [String]) -> [String] {
        let names = inputs.map { URL(fileURLWithPath: $0).lastPathComponent }
        let bare = names.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        var counts: [String: Int] = [:]
        for stem in bare { counts[stem, default: 0] += 1 }
        return zip(names, bare).map { name, stem in counts[stem, default: 0] > 1 ? name : stem }
    }
}
