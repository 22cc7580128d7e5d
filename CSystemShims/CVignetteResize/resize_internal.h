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
/// (and capped at `in_size`), output sample i centred on input position (i + 0.5) × `scale`
/// (`scale` ≤ 0: in_size / out_size). Returns 0, or -2 when memory ran out.
int vgn_kernel_make(vgn_kernel *kernel, int in_size, int out_size, int multiple, double scale);
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
/// The weights of `kernel` as vgn_horizontal_avx2 reads them for `bands` (free() it); NULL when out
/// of memory.
void *vgn_horizontal_avx2_prepare(const vgn_kernel *kernel, int bands);
/// The first `width` & ~7 pixels of an RGBA row premultiplied, 8 at a time, exactly as the scalar
/// loop does it; returns how many it did (the caller does the rest).
int vgn_premultiply_rgba_avx2(const uint8_t *source, uint8_t *row, int width);
/// The same integers as vgn_horizontal_scalar, 4 taps at a time, with `prepared` from
/// vgn_horizontal_avx2_prepare. Needs `kernel->taps` to be a multiple of 4 and reads up to 16
/// bytes past the last pixel of a window: the caller pads `in`.
void vgn_horizontal_avx2(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                         int rows, int bands, const vgn_kernel *kernel, const void *prepared);
#endif

/// One resize, set up: the input as given (vgn_resize_rows premultiplies the rows it reads when it
/// has alpha), the output, both kernels and the AVX2 horizontal weights (NULL: the scalar
/// horizontal pass).
typedef struct {
    const uint8_t *in;
    size_t in_stride;
    uint8_t *out;
    size_t row_bytes, out_stride;
    int out_width, bands, has_alpha, use_avx2;
    const vgn_kernel *vertical, *horizontal;
    const void *horizontal_avx2;
} vgn_resize_job;

/// Both passes for output rows [first, first + count) (output row i needs only the vertical
/// pass's row i), then unpremultiplied. Returns 0, or -2 when memory ran out.
int vgn_resize_rows(const vgn_resize_job *job, int first, int count);
/// Colour bands × alpha / 255, rounded, from `in` into packed rows at `out`; with `use_avx2`, RGBA
/// rows 8 pixels at a time (vgn_premultiply_rgba_avx2), the same integers.
void vgn_resize_premultiply(const uint8_t *in, size_t in_stride, uint8_t *out, int width, int height, int bands,
                            int use_avx2);
/// Checks the arguments both entry points share and picks the code path: 1 AVX2, 0 scalar, -1 refused.
int vgn_resize_check(int in_width, int in_height, int out_width, int out_height, size_t out_stride,
                     int bands, int has_alpha, int implementation);
/// Makes both kernels and the AVX2 weights into `job` (its other fields set by the caller).
/// Returns 0 or -2; vgn_resize_job_free releases what it made, even after a failure.
int vgn_resize_job_make(vgn_resize_job *job, vgn_kernel *vertical, vgn_kernel *horizontal,
                        int in_width, int in_height, int out_width, int out_height, double x_scale, double y_scale);
void vgn_resize_job_free(vgn_resize_job *job, vgn_kernel *vertical, vgn_kernel *horizontal);

#endif
