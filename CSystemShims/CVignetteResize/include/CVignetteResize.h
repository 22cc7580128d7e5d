// CVignetteResize: Vignette's own pixel kernels: a separable Lanczos-3 reducer for interleaved 8-bit
// pixels, EXIF orientations of planes, and colour conversion (matrix-shaper RGB and CMYK grids).
//
// Why it exists: libvips' reduceh/reducev loops are scalar, and a JPEG thumbnail spends much of
// its time in them. This reducer does the same separable Lanczos-3 resampling with 16-bit
// fixed-point coefficients, with an x86-64 AVX2 path chosen at run time (__builtin_cpu_supports)
// and a portable scalar path that computes the same integers. It knows nothing of libvips:
// pointers in, pointers out. All symbols are prefixed `vgn_`.
#ifndef VGN_CRESIZE_H
#define VGN_CRESIZE_H

#include <stddef.h>
#include <stdint.h>

/// Which code path `vgn_lanczos3_resize` takes.
enum {
    /// AVX2 when the CPU has it, the scalar path otherwise.
    VGN_RESIZE_AUTOMATIC = 0,
    /// The portable scalar path.
    VGN_RESIZE_SCALAR = 1,
    /// The AVX2 path; `vgn_lanczos3_resize` fails (-1) when the CPU does not have AVX2.
    VGN_RESIZE_AVX2 = 2,
};

/// 1 when this CPU can run the AVX2 path (x86-64 with AVX2), 0 otherwise.
int vgn_resize_has_avx2(void);

/// Resamples `in` (`in_width` × `in_height` pixels of `bands` interleaved 8-bit samples, rows
/// `in_stride` bytes apart) to `out` (`out_width` × `out_height`, rows `out_stride` bytes apart)
/// with a Lanczos-3 kernel stretched by the scale factor when reducing: first vertically, then
/// horizontally, with 8-bit results in between (as libvips' and Pillow's reducers do).
/// `bands` is 1–4. When `has_alpha` is 1 the last band is alpha, and the colour bands are
/// premultiplied by it around the resampling so transparent pixels' colour does not bleed.
/// `implementation` is one of the VGN_RESIZE_ values. `threads` (1-4) splits the output rows between
/// that many threads (this one and pthreads it starts and joins); the pixels do not depend on it.
/// `in` and `out` must not overlap.
/// Returns 0 on success, -1 for arguments it does not take, -2 when memory ran out.
int vgn_lanczos3_resize(const uint8_t *in, int in_width, int in_height, size_t in_stride,
                        uint8_t *out, int out_width, int out_height, size_t out_stride,
                        int bands, int has_alpha, int implementation, int threads);

/// `vgn_lanczos3_resize` with the mapping given: output sample i (a column, or a row) is centred on
/// input position (i + 0.5) × `x_scale` (or `y_scale`), pixel x covering [x, x + 1); a scale of 0
/// is the sizes' ratio. For planes whose stored size is padded past the picture's (a JPEG's Y/Cb/Cr
/// planes, whose chroma covers half a luma pixel more at odd sizes): every plane of one image gets
/// the luma's ratio, so they stay aligned. Samples past `in_width` × `in_height` are never read
/// (the edge is extended); scales must be 0–64.
int vgn_lanczos3_resize_scaled(const uint8_t *in, int in_width, int in_height, size_t in_stride,
                               uint8_t *out, int out_width, int out_height, size_t out_stride,
                               double x_scale, double y_scale,
                               int bands, int has_alpha, int implementation, int threads);

/// Copies the `width` × `height` samples of plane `in` (rows `in_stride` bytes apart) into `out`
/// (rows `out_stride` apart) turned as EXIF orientation `orientation` (1–8) says to show them
/// upright, as `vips_autorot` turns an image: `width` × `height` of `out` for 1–4, `height` ×
/// `width` for the transposing 5–8. 2 mirrors left to right, 3 turns 180°, 4 mirrors top to
/// bottom, 5 transposes, 6 turns 90° clockwise, 7 transverses, 8 turns 90° anticlockwise;
/// anything else copies. `in` and `out` must not overlap.
void vgn_orient_plane(const uint8_t *in, int width, int height, size_t in_stride, uint8_t *out, size_t out_stride,
                      int orientation);

/// Fills a plane's padding, the samples past its `width` × `height` picture up to `padded_width` ×
/// `padded_height` (rows `stride` apart), with copies of the picture's last column and row.
void vgn_pad_plane(uint8_t *plane, int width, int height, size_t stride, int padded_width, int padded_height);

/// Moves the `width` × `height` plane's samples by half a sample towards its start, along its rows
/// (`along_rows` 1) or its columns (0): each sample becomes the mean of itself and the next, the last
/// stays. A subsampled chroma plane reversed along an odd luma length is off by half a chroma sample
/// (its last sample covered one luma pixel, not two): this puts it back where the luma is.
void vgn_shift_half_sample(uint8_t *plane, int width, int height, int along_rows);

/// A conversion of 8-bit RGB to 8-bit sRGB through a matrix-shaper ICC profile (three tone curves
/// and a 3×3 matrix, as most cameras', phones' and Apple's RGB profiles are): each input value's
/// share of each output channel's linear light comes from a table (the input's curve times the
/// matrix entry, in fixed point), the three shares are summed, and the sum is encoded with the sRGB
/// curve from a second table. This is littleCMS' own matrix-shaper optimisation without its
/// per-pixel formatter calls, and built without its 16,384 evaluations of each output curve.
typedef struct vgn_matrix_shaper vgn_matrix_shaper;

/// The tables for `matrix` (9 numbers, row-major: input linear RGB to sRGB's linear RGB) and
/// `curves` (768 numbers: the red, then green, then blue channel's linear light, 0–1, at the 256
/// values i / 255). Values past 0–1 after the matrix are clipped, as littleCMS clips them. NULL
/// when memory ran out or a number is not finite or out of range.
vgn_matrix_shaper *vgn_matrix_shaper_make(const double *matrix, const double *curves);

/// Converts `count` pixels of `bands` interleaved samples (3, or 4 with the alpha copied) from
/// `in` to `out`, which may be the same memory.
void vgn_matrix_shaper_apply(const vgn_matrix_shaper *shaper, const uint8_t *in, uint8_t *out, size_t count, int bands);

void vgn_matrix_shaper_free(vgn_matrix_shaper *shaper);

/// A conversion of 8-bit CMYK to 8-bit RGB through a grid of littleCMS' nodes: the values a
/// littleCMS transform's lookup table holds, interpolated as littleCMS interpolates them
/// (`Eval4Inputs`: linear in C between two slices, tetrahedral in M, Y and K), so that the
/// result is littleCMS' own, without its per-pixel formatter and pipeline calls.
typedef struct vgn_cmyk_table vgn_cmyk_table;

/// The table for `grid`: `points`⁴ nodes (2–33 a side; C the slowest, K the fastest), each three
/// 16-bit values (R, G, B), node i of a side at input i × 65535 / (points − 1). NULL when memory
/// ran out or `points` is out of range.
vgn_cmyk_table *vgn_cmyk_table_make(const uint16_t *grid, int points);

/// Converts `count` CMYK pixels (4 samples) from `in` to RGB pixels (3 samples) in `out`.
void vgn_cmyk_table_apply(const vgn_cmyk_table *table, const uint8_t *in, uint8_t *out, size_t count);

void vgn_cmyk_table_free(vgn_cmyk_table *table);

#endif
