// The pieces of SSIMULACRA 2.1 shared by its scalar and AVX2 kernels (not part of the module).
#ifndef VGN_SSIMULACRA2_INTERNAL_H
#define VGN_SSIMULACRA2_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/// The metric's scales: the image and five halvings.
#define VGN_S2_SCALES 6

/// The recursive Gaussian of σ = 1.5 (Charalampidis 2016, "Recursive implementation of the
/// Gaussian filter using truncated cosine functions"): the kernel is approximated on [-radius,
/// radius] by three cosines, k = 1, 3, 5, each run as a second-order recursion
///   y_k[n] = n2_k (x[n - radius - 1] + x[n + radius - 1]) - d1_k y_k[n - 1] - y_k[n - 2]
/// (two fused multiply-adds) whose sum is the output at n (samples outside the line are zero).
typedef struct {
    int radius;
    float n2[3], d1[3];
} vgn_s2_gaussian;

/// The coefficients for σ = 1.5, computed once (thread-safe).
const vgn_s2_gaussian *vgn_s2_gaussian_get(void);

/// The floats of the blur's line buffer for planes up to `width` wide (eight rows turned into
/// columns with a margin of zeros, and their outputs).
#define VGN_S2_LINES(width) (((size_t)(width) * 2 + 48) * 8)

/// A float plane: `width` × `height` samples, rows `stride` floats apart (a multiple of 8, rows
/// 32-byte aligned).
typedef struct {
    float *data;
    int width, height;
    size_t stride;
} vgn_s2_plane;

static inline float *vgn_s2_row(const vgn_s2_plane *plane, int y) {
    return plane->data + (size_t)y * plane->stride;
}

/// The six sums one channel of one scale contributes: the SSIM error's 1- and 4-norm means, the
/// ringing (artifact) and blur (detail lost) edge maps' 1- and 4-norm means, before the roots.
typedef struct {
    double ssim, ssim4, artifact, artifact4, lost, lost4;
} vgn_s2_sums;

/// The kernels, one table per code path.
typedef struct {
    /// `out` = the Gaussian of `in` (same size); `scratch` is a plane of that size and `lines`
    /// holds VGN_S2_LINES(width) floats, 32-byte aligned. `in` and `out` may be the same plane.
    void (*blur)(const vgn_s2_gaussian *gaussian, const vgn_s2_plane *in, vgn_s2_plane *out,
                 vgn_s2_plane *scratch, float *lines);
    /// out = a × b, sample by sample.
    void (*multiply)(const vgn_s2_plane *a, const vgn_s2_plane *b, vgn_s2_plane *out);
    /// Linear RGB planes to the metric's positive XYB planes.
    void (*xyb)(const vgn_s2_plane linear[3], vgn_s2_plane xyb[3]);
    /// Adds one channel's SSIM and edge sums over the plane to `sums`.
    void (*maps)(const vgn_s2_plane *img1, const vgn_s2_plane *mu1, const vgn_s2_plane *s11,
                 const vgn_s2_plane *img2, const vgn_s2_plane *mu2, const vgn_s2_plane *s22,
                 const vgn_s2_plane *s12, vgn_s2_sums *sums);
} vgn_s2_kernels;

extern const vgn_s2_kernels vgn_s2_scalar_kernels;
#if defined(__x86_64__)
#define VGN_S2_HAVE_AVX2 1
extern const vgn_s2_kernels vgn_s2_avx2_kernels;
#endif

/// The opsin absorbance of JPEG XL's XYB: linear RGB to LMS-like mixes (row-major) and the bias
/// added before the cube root.
#define VGN_S2_M00 0.30f
#define VGN_S2_M01 0.622f
#define VGN_S2_M02 0.078f
#define VGN_S2_M10 0.23f
#define VGN_S2_M11 0.692f
#define VGN_S2_M12 0.078f
#define VGN_S2_M20 0.24342268924547819f
#define VGN_S2_M21 0.20476744424496821f
#define VGN_S2_M22 0.5518098665095536f
#define VGN_S2_BIAS 0.0037930732552754493f
/// SSIM's stabilising constant (on the variance terms only: SSIMULACRA 2 drops the means' one).
#define VGN_S2_C2 0.0009f

/// A cube root for x ≥ 0 in float: an exponent-thirding first guess, then two Halley steps; the
/// scalar and AVX2 paths do these same operations so that they agree.
static inline float vgn_s2_cbrt(float x) {
    if (!(x > 1e-30f)) x = 1e-30f;
    union {
        float f;
        uint32_t u;
    } bits = {x};
    bits.u = bits.u / 3u + 0x2a5137a0u;
    float y = bits.f;
    for (int i = 0; i < 2; i++) {
        const float y3 = y * y * y;
        y = y * (y3 + 2.0f * x) / (2.0f * y3 + x);
    }
    return y;
}

#endif
