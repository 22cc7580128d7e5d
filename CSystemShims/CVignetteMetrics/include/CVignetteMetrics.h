// CVignetteMetrics: full-reference image quality metrics, written here from their published
// descriptions. For now one: SSIMULACRA 2.1 (Jon Sneyers, Cloudinary; the metric of libjxl's
// `ssimulacra2` tool), which the quality search uses to pick an encoder setting by measurement.
//
// The reference image is prepared once (its XYB pyramid and its blurred planes kept) and
// candidates are scored against it, which is what a search over several encodings of one image
// needs. Pointers in, a score out: no libvips, no threads of its own. All symbols are prefixed `vgn_`.
#ifndef VGN_CMETRICS_H
#define VGN_CMETRICS_H

#include <stddef.h>
#include <stdint.h>

/// Which code path the metric takes.
enum {
    /// AVX2 (with FMA) when the CPU has it, the scalar path otherwise.
    VGN_SSIMULACRA2_AUTOMATIC = 0,
    /// The portable scalar path.
    VGN_SSIMULACRA2_SCALAR = 1,
    /// The AVX2 path; preparing fails (VGN_SSIMULACRA2_INVALID) when the CPU does not have AVX2.
    VGN_SSIMULACRA2_AVX2 = 2,
};

/// What the functions return.
enum {
    VGN_SSIMULACRA2_OK = 0,
    /// An argument it does not take (a NULL pointer, a stride shorter than a row, bands not 1–4).
    VGN_SSIMULACRA2_INVALID = -1,
    /// Memory ran out.
    VGN_SSIMULACRA2_NO_MEMORY = -2,
    /// The candidate's size is not the reference's.
    VGN_SSIMULACRA2_SIZE_MISMATCH = -3,
    /// A side shorter than 8 pixels (the metric's smallest scale) or longer than 65,535.
    VGN_SSIMULACRA2_BAD_SIZE = -4,
};

/// A prepared reference image: its XYB pyramid with the blurred planes the score needs, for each
/// background it is blended over (two when it has alpha), about 48 bytes per pixel each, and the
/// scratch planes of one score (about 45 bytes per pixel), kept so that a search's scores do not
/// allocate. Several threads may score candidates against one reference at once: one uses the
/// kept scratch, the others allocate their own.
typedef struct vgn_ssimulacra2_reference vgn_ssimulacra2_reference;

/// 1 when this CPU can run the AVX2 path (x86-64 with AVX2 and FMA), 0 otherwise.
int vgn_ssimulacra2_has_avx2(void);

/// Prepares `pixels` (`width` × `height` pixels of `bands` interleaved 8-bit sRGB samples, rows
/// `stride` bytes apart: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA) as a reference into `*reference`.
/// An image with alpha is blended over dark and light grey (0.1 and 0.9 of full scale, in sRGB)
/// and scored over each, the lower score winning, as libjxl's tool does; one without alpha is
/// scored once, a candidate with alpha then blended over middle grey (0.5).
/// Returns VGN_SSIMULACRA2_OK or one of the negative codes above (`*reference` then NULL).
int vgn_ssimulacra2_prepare(const uint8_t *pixels, int width, int height, size_t stride, int bands,
                            int implementation, vgn_ssimulacra2_reference **reference);

/// Scores `pixels` (laid out as for vgn_ssimulacra2_prepare, the reference's size) against
/// `reference` into `*score`: 100 for identical pixels, lower as distortion grows (about 90 is
/// visually lossless, 70 high quality, 50 medium, 30 low; very poor candidates go below 0).
/// Uses the reference's scratch planes, or allocates its own (about 45 bytes per pixel) when
/// another thread is using them.
/// Returns VGN_SSIMULACRA2_OK or a negative code (then `*score` is untouched).
int vgn_ssimulacra2_score(const vgn_ssimulacra2_reference *reference, const uint8_t *pixels, int width,
                          int height, size_t stride, int bands, double *score);

/// The bytes `reference` holds (for a cache's accounting).
size_t vgn_ssimulacra2_reference_bytes(const vgn_ssimulacra2_reference *reference);

/// Frees `reference` (NULL is ignored).
void vgn_ssimulacra2_free(vgn_ssimulacra2_reference *reference);

#endif
