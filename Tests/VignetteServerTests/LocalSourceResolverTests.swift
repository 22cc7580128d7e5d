import Foundation
import Testing
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("local:/// sources stay under the root")
struct LocalSourceResolverTests {
    /// root/photos/cat.jpg, root/link-out -> outside/secret.jpg, root/link-in -> photos/cat.jpg, outside/secret.jpg.
    func withFolders(_ body: (String, String) throws -> Void) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-local-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let root = base + "/root", outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: root + "/photos", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/photos/cat.jpg", contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: root + "/photos/a b.jpg", contents: Data([1])))
        #expect(FileManager.default.createFile(atPath: outside + "/secret.jpg", contents: Data([2])))
        try FileManager.default.createSymbolicLink(atPath: root + "/link-out.jpg", withDestinationPath: outside + "/secret.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/link-in.jpg", withDestinationPath: "photos/cat.jpg")
        try FileManager.default.createSymbolicLink(atPath: root + "/dir-out", withDestinationPath: outside)
        try body(root, outside)
    }

    @Test("files under the root resolve, through links that stay inside too")
    func inside() throws {
        try withFolders { root, _ in
            let resolver = try #require(LocalSourceResolver(root: root))
            let cat = try resolver.resolve("/photos/cat.jpg")
            #expect(cat.hasSuffix("/root/photos/cat.jpg"))
            #expect(try resolver.resolve("photos/cat.jpg") == cat)
            #expect(try resolver.resolve("/photos/./../photos//cat.jpg") == cat)
            #expect(try resolver.resolve("/link-in.jpg") == cat)
            #expect(try resolver.resolve("/photos/a%20b.jpg").hasSuffix("/photos/a b.jpg"))
        }
    }

    @Test("every way out is forbidden: .., encoded .., absolute spellings, links out, NUL, bad escapes")
    func outside() throws {
        try withFolders { root, outside in
            let resolver = try #require(LocalSourceResolver(root: root))
            for path in ["/../outside/secret.jpg", "/photos/../../outside/secret.jpg", "/%2e%2e/outside/secret.jpg",
                         "/..%2Foutside%2Fsecret.jpg", "/link-out.jpg", "/dir-out/secret.jpg", "/photos/cat.jpg%00.png",
                         "/photos/%zz.jpg", "/../../../../etc/passwd", "/..", "/../nothing-here.jpg"] {
                #expect(throws: LocalSourceResolver.Refusal.self, "\(path)") { try resolver.resolve(path) }
                do throws(LocalSourceResolver.Refusal) {
                    _ = try resolver.resolve(path)
                } catch {
                    guard case .forbidden = error else {
                        Issue.record("\(path): \(error)")
                        continue
                    }
                }
            }
            _ = outside
        }
    }

    static func decoded(_ path: String) -> String { path }

    @Test("missing files inside the root are not found; the root itself and folders are not files")
    func missing() throws {
        try withFolders { root, _ in
            let resolver = try #require(LocalSourceResolver(root: root))
            for path in ["/photos/dog.jpg", "/", "/photos", "/nothing/here.jpg"] {
                do throws(LocalSourceResolver.Refusal) {
                    let found = try resolver.resolve(path)
                    Issue.record("\(path) resolved to \(found)")
                } catch {
                    #expect(error == .notFound(LocalSourceResolverTests.decoded(path)), "\(path)")
                }
            }
            #expect(LocalSourceResolver(root: root + "/photos/cat.jpg") == nil)
            #expect(LocalSourceResolver(root: root + "/absent") == nil)
        }
    }
}
