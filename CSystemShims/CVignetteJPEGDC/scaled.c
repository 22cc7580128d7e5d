// The sequential Huffman decoder at 1/4 and 1/2 (SOF0, SOF1; 8-bit; 1 or 3 components; any
// sampling factors that libjpeg-turbo decodes at one IDCT size for all components; restart
// intervals): every AC symbol is decoded, only the coefficients the reduced IDCT reads are kept
// (vgn_jpeg_idct_2x2: rows and columns 0, 1, 3, 5, 7; vgn_jpeg_idct_4x4: all but row 4), and each
// block becomes 2x2 or 4x4 samples as libjpeg-turbo's tjDecompressToYUVPlanes makes them here.
// It declines wherever libjpeg-turbo would warn or fail, as the DC-only decoder does
// (sequential.c): a bad Huffman code, bits needed past the end of a segment, a whole unused byte
// before a marker, a missing or misnumbered restart marker, anything but EOI after the scan.
#include "vgn_jpeg_dc.h"
#include "entropy.h"
#include "idct_reduced.h"

#include <stdlib.h>
#include <string.h>

#define AC_LOOKAHEAD 10

/// An AC table: one lookup of AC_LOOKAHEAD bits for the codes that fit, libjpeg's walk for the rest.
typedef struct {
    uint16_t single[1 << AC_LOOKAHEAD];   // (length << 8) | symbol; 0: longer code or none
    vgn_dc_huffman slow;
} ac_table;

typedef struct {
    vgn_dc_huffman dc[4];
    ac_table ac[4];
    uint8_t keep[80];   // coefficient index k (past 63: libjpeg's extra entries, 63) -> natural position, 64: dropped
} tables;

/// jpeg_natural_order: zigzag index -> natural (row-major) position.
static const uint8_t natural_order[64] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

/// Whether the IDCT making `scale` x `scale` samples reads natural position `p`.
static int needed(int p, int scale) {
    int row = p / 8, column = p % 8;
    if (scale == 4) return row != 4;
    return (row < 2 || row % 2 == 1) && (column < 2 || column % 2 == 1);
}

/// Decodes one block's coefficients into `block` (65 entries, zero but for what this writes; the
/// last takes what the IDCT does not read), DC included: 1 when it has AC coefficients, 0 when
/// it has none, -1 for a bad code.
static inline int decode_block(vgn_dc_reader *r, const vgn_dc_huffman *dc, const ac_table *ac, const uint8_t *keep,
                               int16_t *block, uint16_t *pred) {
    int diff;
    if (vgn_dc_decode_dc(r, dc, &diff) != 0) return -1;
    *pred = (uint16_t)(*pred + (uint16_t)diff);
    block[0] = (int16_t)*pred;
    int any = 0;
    for (int k = 1; k < 64; k++) {
        vgn_dc_refill(r);
        uint32_t e = ac->single[vgn_dc_peek(r, AC_LOOKAHEAD)];
        int symbol;
        if (__builtin_expect(e != 0, 1)) {
            vgn_dc_drop(r, (int)(e >> 8));
            symbol = (int)(e & 0xFF);
        } else {
            symbol = vgn_dc_decode_slow(r, &ac->slow, AC_LOOKAHEAD + 1);
            if (symbol < 0) return -1;
        }
        int run = symbol >> 4, s = symbol & 15;
        if (s) {
            k += run;
            block[keep[k]] = (int16_t)vgn_dc_extend(vgn_dc_peek(r, s), s);
            vgn_dc_drop(r, s);
            any = 1;
        } else {
            if (run != 15) break;
            k += 15;
        }
    }
    return any;
}

/// Where a component's samples go.
typedef struct {
    uint8_t *plane;
    int stride, width, height;   // plane
    int wide, high;              // blocks written: those of the component that start inside the plane
    int h, v;
    uint16_t quant[64];          // natural order
} output;

/// Writes `block`'s samples at block (bx, by) of `o`, cut at the plane's edges; a block with no AC
/// coefficients (`any_ac` 0) is one value.
static void put_block(const output *o, const int16_t *block, int any_ac, int scale, int bx, int by) {
    int x = bx * scale, y = by * scale;
    if (!any_ac) {
        uint8_t value = vgn_jpeg_idct_dc_only(block[0], o->quant[0], scale);
        for (int j = 0; j < scale && y + j < o->height; j++) {
            int n = x + scale <= o->width ? scale : o->width - x;
            memset(o->plane + (size_t)(y + j) * (size_t)o->stride + (size_t)x, value, (size_t)n);
        }
        return;
    }
    if (x + scale <= o->width && y + scale <= o->height) {
        uint8_t *at = o->plane + (size_t)y * (size_t)o->stride + (size_t)x;
        if (scale == 4) vgn_jpeg_idct_4x4(block, o->quant, at, o->stride);
        else vgn_jpeg_idct_2x2(block, o->quant, at, o->stride);
        return;
    }
    uint8_t samples[16];
    if (scale == 4) vgn_jpeg_idct_4x4(block, o->quant, samples, 4);
    else vgn_jpeg_idct_2x2(block, o->quant, samples, 2);
    for (int j = 0; j < scale && y + j < o->height; j++)
        for (int i = 0; i < scale && x + i < o->width; i++) o->plane[(size_t)(y + j) * (size_t)o->stride + (size_t)(x + i)] = samples[j * scale + i];
}

typedef struct {
    const vgn_dc_scan *scan;
    const tables *tables;
    const output *out;
    int scale;
    int h[3], v[3];
    uint16_t pred[3];
    int16_t block[65];   // zero between blocks
} interval_context;

static int decode_one_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    interval_context *c = context;
    const output *o = &c->out[i];
    const tables *t = c->tables;
    int any_ac = decode_block(r, &t->dc[c->scan->td[i]], &t->ac[c->scan->ta[i]], t->keep, c->block, &c->pred[i]);
    if (any_ac < 0) return -1;
    if (bx < o->wide && by < o->high) put_block(o, c->block, any_ac, c->scale, bx, by);
    if (any_ac) memset(c->block, 0, sizeof c->block);
    else c->block[0] = 0;
    return 0;
}

/// Decodes the MCUs [first, first + count) of one restart interval from `r`.
static int decode_interval(void *context, vgn_dc_reader *r, long first, long count, int per_row) {
    interval_context *c = context;
    memset(c->pred, 0, sizeof c->pred);
    return vgn_dc_decode_blocks(r, c->scan, c->h, c->v, first, count, per_row, decode_one_block, c);
}

/// Whether libjpeg-turbo decodes every component at the luma's IDCT size. jdmaster.c scales a
/// component whose sampling factors divide both maxima by 2 or more up through a larger IDCT;
/// tjDecompressToYUVPlanes undoes that for the 4:2:0 it names (luma 2x2, chroma 1x1) only.
static int one_idct_size(const vgn_dc_state *st) {
    if (st->ncomp == 1) return 1;
    int standard420 = st->comp[0].h == 2 && st->comp[0].v == 2 && st->comp[1].h == 1 && st->comp[1].v == 1
                   && st->comp[2].h == 1 && st->comp[2].v == 1;
    for (int c = 0; c < st->ncomp; c++)
        if (st->hmax % (2 * st->comp[c].h) == 0 && st->vmax % (2 * st->comp[c].v) == 0 && !standard420) return 0;
    return 1;
}

int vgn_jpeg_scaled_decode(
    const uint8_t *jpeg, size_t size, int scale, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]) {
#if !defined(__x86_64__)
    // The IDCT here is the twin of libjpeg-turbo's x86-64 SSE2 code; other CPUs run other code.
    (void)jpeg, (void)size, (void)scale, (void)plane_count, (void)planes, (void)strides, (void)widths, (void)heights;
    return VGN_JPEG_DC_DECLINED;
#endif
    if (jpeg == NULL || planes == NULL || strides == NULL || widths == NULL || heights == NULL || (scale != 2 && scale != 4))
        return VGN_JPEG_DC_DECLINED;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_scan scan;
    size_t pos = vgn_dc_read_header(jpeg, size, &st, &scan);
    if (pos == 0 || vgn_dc_check_sequential_scan(&st, &scan) != 0 || plane_count != st.ncomp || !one_idct_size(&st))
        return VGN_JPEG_DC_DECLINED;
    output out[3];
    for (int c = 0; c < st.ncomp; c++) {
        if (planes[c] == NULL || widths[c] < 1 || heights[c] < 1 || strides[c] < widths[c]) return VGN_JPEG_DC_DECLINED;
        int wide = vgn_dc_blocks_wide(&st, c), high = vgn_dc_blocks_high(&st, c);
        int inside_wide = (widths[c] + scale - 1) / scale, inside_high = (heights[c] + scale - 1) / scale;
        out[c] = (output){
            .plane = planes[c], .stride = strides[c], .width = widths[c], .height = heights[c],
            .wide = wide < inside_wide ? wide : inside_wide, .high = high < inside_high ? high : inside_high,
            .h = st.comp[c].h, .v = st.comp[c].v};
        for (int k = 0; k < 64; k++) out[c].quant[natural_order[k]] = st.quant[st.comp[c].tq][k];
    }
    tables *t = malloc(sizeof *t);
    uint8_t *scratch = malloc(size - pos + 8);
    int status = VGN_JPEG_DC_NO_MEMORY;
    if (t == NULL || scratch == NULL) goto done;
    for (int k = 0; k < 80; k++) {
        int p = k < 64 ? natural_order[k] : 63;
        t->keep[k] = (uint8_t)(needed(p, scale) ? p : 64);
    }
    int built = 0;   // bit n: DC table n, bit 4 + n: AC table n
    for (int i = 0; i < scan.count; i++) {
        if (!(built & 1 << scan.td[i])) vgn_dc_build_huffman(&st.dc[scan.td[i]], &t->dc[scan.td[i]]);
        if (!(built & 16 << scan.ta[i])) {
            vgn_dc_build_huffman(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]].slow);
            vgn_dc_build_lookup(&st.ac[scan.ta[i]], AC_LOOKAHEAD, t->ac[scan.ta[i]].single);
        }
        built |= 1 << scan.td[i] | 16 << scan.ta[i];
    }
    status = VGN_JPEG_DC_DECLINED;
    interval_context context = {.scan = &scan, .tables = t, .out = out, .scale = scale};
    for (int i = 0; i < scan.count; i++) {
        context.h[i] = out[i].h;
        context.v[i] = out[i].v;
    }
    if (vgn_dc_decode_scan(jpeg, size, pos, &st, &scan, scratch, decode_interval, &context) != 0) goto done;
    for (int c = 0; c < st.ncomp; c++) {
        int wide = out[c].wide * scale, high = out[c].high * scale;
        vgn_dc_pad_plane(out[c].plane, out[c].stride, out[c].width, out[c].height, wide < out[c].width ? wide : out[c].width,
                         high < out[c].height ? high : out[c].height);
    }
    status = VGN_JPEG_DC_OK;
done:
    free(scratch);
    free(t);
    return status;
}
