#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// Which embedded ICC profiles mean sRGB: those through which the conversion to sRGB
/// (`Image.convertedToSRGB`, the one every route takes) leaves every colour of a probe within ±1
/// of where it was. Cameras' and phones' "sRGB
/// IEC61966-2.1" and Android's compact "sRGB Gamut with sRGB Transfer" are such profiles (0
/// difference on the probe); Adobe RGB or Apple's Generic RGB move colours by up to 118 and 64.
///
/// A source with such a profile, when the profile is to be converted away, can skip the
/// conversion: the planar JPEG route (`Thumbnailer.planarJPEGThumbnail`) then writes its planes
/// as they are.
///
/// The verdict is kept per profile (at most 64 of them; a service sees the same few profiles over
/// and over), so the probe's transform is built once per profile.
enum SRGBProfiles {
    private static let verdicts = Locked<[Data: Bool]>([:])

    /// Whether converting through `profile` to sRGB changes no colour by more than 1. Bytes that
    /// are no usable profile count as sRGB, as in the conversion itself, which takes the values as
    /// sRGB then; a conversion that fails is not sRGB.
    static func isSRGB(_ profile: Data) -> Bool {
        if let known = verdicts.withLock({ $0[profile] }) { return known }
        let verdict = (try? probe(profile)) ?? false
        verdicts.withLock { verdicts in
            if verdicts.count >= 64 { verdicts.removeAll() }
            verdicts[profile] = verdict
        }
        return verdict
    }

    /// The probe: 8 levels a channel (512 colours, the primaries, secondaries and corners among
    /// them) and the 256 greys, as one row of RGB pixels.
    private static let probeColours: [UInt8] = {
        let levels: [UInt8] = [0, 36, 73, 109, 146, 182, 219, 255]
        var bytes: [UInt8] = []
        for red in levels { for green in levels { for blue in levels { bytes += [red, green, blue] } } }
        for grey in 0...255 { bytes += [UInt8(grey), UInt8(grey), UInt8(grey)] }
        return bytes
    }()

    private static func probe(_ profile: Data) throws(ImagingError) -> Bool {
        let colours = probeColours
        let probe = try Image(pixels: PixelBuffer(width: colours.count / 3, height: 1, bands: 3, bytes: colours))
        let pixels = try probe.withProfile(profile).convertedToSRGB().pixels()
        guard pixels.bands == 3, pixels.bytes.count == colours.count else { return false }
        return zip(pixels.bytes, colours).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
