// The pieces of vgn_lanczos3_resize shared by its scalar and AVX2 passes (not part of the module).
#ifndef VGN_RESIZE_INTERNAL_H
#define VGN_RESIZE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/// Coefficients are fixed point with this many fractional bits: every output's weights add up to
/// exactly 1 << VGN_RESIZE_PRECISION, so flat areas stay exactly flat.
#define VGN_RESIZE_PRECISION 14

/// One axis of a resize: for each output sample, a window of `taps` consecutive input samples
/// starting at `start[i]` (always inside the input: start + taps <= input size) and its weights.
typedef struct {
    int out_size;
    int taps;
    int *start;
    int16_t *weights; /* out_size × taps */
} vgn_kernel;

/// Lanczos-3 weights for `in_size` → `out_size`, `taps` rounded up to a multiple of `multiple`
/// (and capped at `in_size`). Returns 0, or -2 when memory ran out.
int vgn_kernel_make(vgn_kernel *kernel, int in_size, int out_size, int multiple);
void vgn_kernel_free(vgn_kernel *kernel);

static inline uint8_t vgn_clamp_sample(int32_t accumulated) {
    int32_t value = accumulated >> VGN_RESIZE_PRECISION;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

/// out row i = Σ weights × in rows of window i, for `row_bytes` bytes of each row.
void vgn_vertical_scalar(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                         size_t row_bytes, const vgn_kernel *kernel);
/// out pixel i of each of `rows` rows = Σ weights × in pixels of window i, band by band.
void vgn_horizontal_scalar(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                           int rows, int bands, const vgn_kernel *kernel);

#if defined(__x86_64__)
#define VGN_RESIZE_HAVE_AVX2 1
/// The same integers as vgn_vertical_scalar, 32 bytes at a time.
void vgn_vertical_avx2(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                       size_t row_bytes, const vgn_kernel *kernel);
/// The same integers as vgn_horizontal_scalar, 4 taps at a time. Needs `kernel->taps` to be a
/// multiple of 4 and reads up to 16 bytes past the last pixel of a window: the caller pads `in`.
/// Returns -2 when memory ran out.
int vgn_horizontal_avx2(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                        int rows, int bands, const vgn_kernel *kernel);
#endif

#endif
