import Foundation
import Testing

@testable import VignetteCodecs
import VignetteSupport

/// Errors from the C libraries and the system keep the library's own code beside its message, and
/// are of the kind the failure is.
@Suite("Library errors: the library's code beside its message, of the right kind")
struct LibraryErrorCodeTests {
    @Test("libheif: bytes that are not HEIF give heif_error_Invalid_input / heif_suberror_No_ftyp_box, as corrupt data")
    func heifCode() throws {
        let error = expectImagingError("not HEIF") { () throws(ImagingError) in
            _ = try HEIFContainer(data: Data(repeating: 7, count: 64), maximumSide: 1000)
        }
        // heif.h: heif_error_Invalid_input = 2, heif_suberror_No_ftyp_box = 102.
        #expect(error?.code == .libheif(code: 2, subcode: 102))
        #expect(error?.kind == .corruptData)
        #expect(error?.message.hasPrefix("heif_context_read: ") == true, "\(String(describing: error))")
    }

    @Test("A system call's failure keeps the call's name and errno: a missing file is ENOENT from stat")
    func systemCode() throws {
        let error = expectImagingError("missing") { () throws(ImagingError) in
            _ = try InputFile.read("/nonexistent-\(UUID().uuidString)/image.jpg", limits: .untrusted)
        }
        #expect(error?.kind == .io)
        #expect(error?.code == .system(call: "stat", errno: ENOENT))
        #expect(error?.message.contains(String(cString: strerror(ENOENT))) == true)
    }

    @Test("libwebpmux: a file it cannot assemble keeps its WebPMuxError, WEBP_MUX_INVALID_ARGUMENT for an empty ICC profile")
    func webpMuxCode() throws {
        let webp = try TestFiles.data(TestFiles.fixture("lossy.webp"))
        let error = expectImagingError("empty profile") { () throws(ImagingError) in
            _ = try ProfileEmbedding.webp(webp, profile: Data())
        }
        // mux_types.h: WEBP_MUX_INVALID_ARGUMENT = -1. The empty chunk is taken, and refused when
        // the file is assembled.
        #expect(error?.code == .libwebpmux(-1))
        #expect(error?.kind == .operationFailed)
        #expect(error?.message == "WebPMuxAssemble failed: WEBP_MUX_INVALID_ARGUMENT", "\(String(describing: error))")
    }

    @Test("Errors made without a code carry none, and compare equal as before")
    func noCode() {
        #expect(ImagingError(.io, "x").code == nil)
        #expect(ImagingError(.io, "x") == ImagingError(.io, "x"))
        #expect(ImagingError(.io, "x") != ImagingError(.io, "x", code: .system(call: "open", errno: ENOENT)))
    }
}
