// What the two reduced-scale decoders (scaled.c for sequential files, scaled_progressive.c for
// progressive ones) share after the entropy decode: which coefficients the reduced IDCT reads,
// where each component's samples go, the edge cases of writing a block, and the check that
// libjpeg-turbo runs one IDCT size for every component.
#ifndef VGN_JPEG_SCALED_OUTPUT_H
#define VGN_JPEG_SCALED_OUTPUT_H

#include "jpeg_dc_internal.h"
#include "idct_reduced.h"

#include <stdint.h>
#include <string.h>

/// jpeg_natural_order: zigzag index -> natural (row-major) position, with libjpeg's 16 extra
/// entries (63) that an index run past the block's end reaches.
static const uint8_t natural_order[80] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
};

/// Whether the IDCT making `scale` x `scale` samples reads natural position `p`.
static inline int needed(int p, int scale) {
    int row = p / 8, column = p % 8;
    if (scale == 4) return row != 4;
    return (row < 2 || row % 2 == 1) && (column < 2 || column % 2 == 1);
}

/// Where a component's samples go.
typedef struct {
    uint8_t *plane;
    int stride, width, height;   // plane
    int wide, high;              // blocks written: those of the component that start inside the plane
    int h, v;
    uint16_t quant[64];          // natural order
} output;

/// Whether a reduced-scale decoder can take a call at all: on x86-64 and arm64 only (its IDCT is
/// the twin of libjpeg-turbo's SSE2 or Neon code there; other CPUs run other code), with every
/// array given and `scale` 2 or 4.
static inline int scaled_call_usable(const uint8_t *jpeg, int scale, uint8_t *const planes[3], const int strides[3],
                                     const int widths[3], const int heights[3]) {
#if defined(__x86_64__) || defined(__aarch64__)
    return jpeg != NULL && planes != NULL && strides != NULL && widths != NULL && heights != NULL && (scale == 2 || scale == 4);
#else
    (void)jpeg, (void)scale, (void)planes, (void)strides, (void)widths, (void)heights;
    return 0;
#endif
}

/// Fills `out` (one per component) from the caller's planes at `scale` (2 or 4); the quantisers
/// are left to the caller. -1 when a plane is missing or smaller than its width.
static inline int setup_outputs(const vgn_dc_state *st, int scale, uint8_t *const planes[3], const int strides[3],
                                const int widths[3], const int heights[3], output *out) {
    for (int c = 0; c < st->ncomp; c++) {
        if (planes[c] == NULL || widths[c] < 1 || heights[c] < 1 || strides[c] < widths[c]) return -1;
        int wide = vgn_dc_blocks_wide(st, c), high = vgn_dc_blocks_high(st, c);
        int inside_wide = (widths[c] + scale - 1) / scale, inside_high = (heights[c] + scale - 1) / scale;
        out[c] = (output){
            .plane = planes[c], .stride = strides[c], .width = widths[c], .height = heights[c],
            .wide = wide < inside_wide ? wide : inside_wide, .high = high < inside_high ? high : inside_high,
            .h = st->comp[c].h, .v = st->comp[c].v};
    }
    return 0;
}

/// Repeats each plane's last written column and row to its edges.
static inline void pad_outputs(const output *out, int count, int scale) {
    for (int c = 0; c < count; c++) {
        int wide = out[c].wide * scale, high = out[c].high * scale;
        vgn_dc_pad_plane(out[c].plane, out[c].stride, out[c].width, out[c].height, wide < out[c].width ? wide : out[c].width,
                         high < out[c].height ? high : out[c].height);
    }
}

/// Writes a block's `scale` x `scale` `samples` (rows `scale` apart) at block (bx, by) of `o`,
/// cut at the plane's edges.
static inline void put_samples(const output *o, const uint8_t *samples, int scale, int bx, int by) {
    int x = bx * scale, y = by * scale;
    uint8_t *at = o->plane + (size_t)y * (size_t)o->stride + (size_t)x;
    size_t stride = (size_t)o->stride;
    if (__builtin_expect(x + scale <= o->width && y + scale <= o->height, 1)) {
        if (scale == 4) {
            for (int j = 0; j < 4; j++) memcpy(at + (size_t)j * stride, samples + 4 * j, 4);
        } else {
            memcpy(at, samples, 2);
            memcpy(at + stride, samples + 2, 2);
        }
        return;
    }
    for (int j = 0; j < scale && y + j < o->height; j++)
        for (int i = 0; i < scale && x + i < o->width; i++) at[(size_t)j * stride + (size_t)i] = samples[j * scale + i];
}

/// A block with no AC coefficients the IDCT reads: one value.
static inline void put_dc_only(const output *o, int16_t dc, int scale, int bx, int by) {
    uint8_t value = vgn_jpeg_idct_dc_only(dc, o->quant[0], scale);
    uint8_t samples[16];
    memset(samples, value, sizeof samples);
    put_samples(o, samples, scale, bx, by);
}

/// Whether libjpeg-turbo decodes every component at the luma's IDCT size. jdmaster.c scales a
/// component whose sampling factors divide both maxima by 2 or more up through a larger IDCT;
/// tjDecompressToYUVPlanes undoes that for the 4:2:0 it names (luma 2x2, chroma 1x1) only.
static inline int one_idct_size(const vgn_dc_state *st) {
    if (st->ncomp == 1) return 1;
    int standard420 = st->comp[0].h == 2 && st->comp[0].v == 2 && st->comp[1].h == 1 && st->comp[1].v == 1
                   && st->comp[2].h == 1 && st->comp[2].v == 1;
    for (int c = 0; c < st->ncomp; c++)
        if (st->hmax % (2 * st->comp[c].h) == 0 && st->vmax % (2 * st->comp[c].v) == 0 && !standard420) return 0;
    return 1;
}

#endif
