// The DC-only entropy decoder for sequential Huffman JPEGs (SOF0, SOF1; 8-bit; 1 or 3
// components; any sampling factors; restart intervals) at 1/8: each block's DC is decoded and its
// AC symbols skipped without being stored, and each DC becomes one sample as libjpeg-turbo's
// jpeg_idct_1x1 makes it. It declines wherever libjpeg-turbo would warn or fail: a bad Huffman
// code, bits needed past the end of a segment, a whole unused byte before a marker, a missing or
// misnumbered restart marker, anything but EOI after the scan.
//
// The entropy-coded data of each restart interval is first copied without its stuffed zeros
// (0xFF 0x00 -> 0xFF) into a scratch buffer the size of the input at most; the bit reader then
// reads that buffer only, feeding zero bits past its end and counting them, so a decode that ran
// past the data is declined after its MCU.
#include "vgn_jpeg_dc.h"
#include "jpeg_dc_internal.h"
#include "entropy.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define AC_LOOKAHEAD 12

/// An AC table for skipping: one lookup of AC_LOOKAHEAD bits gives every symbol whose code lies
/// whole within them, each with its extra bits (the last one's may reach past the lookahead),
/// stopping after an end of block: the bits they take and how far they move the coefficient index
/// (run + 1, 16 for ZRL, 64 for EOB), in all and before the last symbol, and the same for the
/// first symbol alone. The whole run is taken while every symbol but the last leaves the block
/// open (past the end of a block the bits are the next block's DC); else only the first.
typedef struct {
    uint32_t skip[1 << AC_LOOKAHEAD];   // see AC_* below; 0: first code longer than the lookahead or none
    vgn_dc_huffman slow;
} ac_table;

// The bits in all come lowest, so that a shift by the entry (which x86 takes modulo 64) drops them.
#define AC_BITS(e) ((int)((e) & 63))
#define AC_BITS1(e) ((int)(((e) >> 6) & 31))
#define AC_ADVANCE(e) ((int)(((e) >> 11) & 127))
#define AC_BEFORE_LAST(e) ((int)(((e) >> 18) & 127))
#define AC_ADVANCE1(e) ((int)((e) >> 25))

typedef struct {
    vgn_dc_huffman dc[4];
    ac_table ac[4];
} tables;

/// How far an AC symbol moves the coefficient index: run + 1, 16 for ZRL, 64 for EOB.
static int ac_advance(int symbol) {
    int run = symbol >> 4, extra = symbol & 15;
    return extra ? run + 1 : (run == 15 ? 16 : 64);
}

static void build_ac(const vgn_dc_huffman_spec *spec, ac_table *t) {
    vgn_dc_build_huffman(spec, &t->slow);
    // One symbol for each value of the lookahead first, then the runs of symbols.
    uint16_t single[1 << AC_LOOKAHEAD];
    vgn_dc_build_lookup(spec, AC_LOOKAHEAD, single);
    for (uint32_t value = 0; value < (1u << AC_LOOKAHEAD); value++) {
        int length;
        int symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, value, AC_LOOKAHEAD, &length);
        if (symbol < 0) {
            t->skip[value] = 0;
            continue;
        }
        int bits = length + (symbol & 15), advance = ac_advance(symbol);
        int bits1 = bits, advance1 = advance, before_last = 0;
        // More symbols while the block is open and the next code lies within the lookahead.
        while (advance < 64 && bits < AC_LOOKAHEAD) {
            symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, value << bits, AC_LOOKAHEAD - bits, &length);
            if (symbol < 0) break;
            before_last = advance;
            bits += length + (symbol & 15);
            advance += ac_advance(symbol);
        }
        if (advance > 127) advance = 127;   // past the block's end either way
        t->skip[value] = (uint32_t)bits | (uint32_t)bits1 << 6 | (uint32_t)advance << 11 | (uint32_t)before_last << 18
                       | (uint32_t)advance1 << 25;
    }
}

/// One lookup of the AC table: the bits and index advance of its symbols, or 0 when the first code
/// is longer than the lookahead. Takes at most AC_LOOKAHEAD + 15 bits from the buffer.
static inline int skip_fast(vgn_dc_reader *r, const ac_table *t, int *k) {
    uint32_t e = t->skip[vgn_dc_peek(r, AC_LOOKAHEAD)];
    if (e == 0) return 0;
    // All of them, unless one before the last ends the block: then only the first (rare: a block
    // that ends at its 63rd coefficient without an EOB).
    if (__builtin_expect(*k + AC_BEFORE_LAST(e) < 64, 1)) {
        vgn_dc_drop(r, AC_BITS(e));
        *k += AC_ADVANCE(e);
    } else {
        vgn_dc_drop(r, AC_BITS1(e));
        *k += AC_ADVANCE1(e);
    }
    return 1;
}

/// Skips one block's AC symbols, counting coefficients as decode_mcu does; -1 for a bad code.
/// A refill leaves at least 56 bits, enough for two table lookups (AC_LOOKAHEAD + 15 bits each):
/// the refill, a load on the decoding's critical path, comes once every two, and not before the
/// first lookup (decode_dc leaves enough bits for one).
static inline int skip_ac(vgn_dc_reader *r, const ac_table *t) {
    int k = 1;
    skip_fast(r, t, &k);   // when the code is longer than the lookahead, k stays 1: the loop takes it
    while (k < 64) {
        vgn_dc_refill(r);
        if (skip_fast(r, t, &k)) {
            if (k >= 64 || skip_fast(r, t, &k)) continue;
            vgn_dc_refill(r);
        }
        int symbol = vgn_dc_decode_slow(r, &t->slow, AC_LOOKAHEAD + 1);
        if (symbol < 0) return -1;
        vgn_dc_drop(r, symbol & 15);
        k += ac_advance(symbol);
    }
    return 0;
}

/// libjpeg's post-IDCT range limit (prepare_range_limit_table, seen through IDCT_range_limit and
/// RANGE_MASK): index & 1023 -> sample, wrapping at +-512 as libjpeg's table does.
static uint8_t range_limit[1024];

static void make_range_limit(void) {
    for (int index = 0; index < 1024; index++)
        range_limit[index] = (uint8_t)(index < 128 ? index + 128 : index < 512 ? 255 : index < 896 ? 0 : index - 896);
}

/// jpeg_idct_1x1: the DC (the 16-bit coefficient libjpeg stores) dequantised, descaled by 8 with
/// rounding, level-shifted and range-limited.
static inline uint8_t dc_sample(uint16_t dc, int quant) {
    int value = ((int)(int16_t)dc * quant + 4) >> 3;
    return range_limit[value & 1023];
}

/// Where a component's samples go: its plane, and the blocks that are in it.
typedef struct {
    uint8_t *plane;
    int stride, width, height;   // plane
    int wide, high;              // blocks written: min(plane, blocks of the component)
    int h, v;
    int quant;
} output;

int vgn_jpeg_dc_kind(const uint8_t *jpeg, size_t size) {
    if (jpeg == NULL || size < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8) return VGN_JPEG_DC_KIND_NONE;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    size_t pos = 2;
    while (st.sof == 0) {
        int marker = vgn_dc_next_marker(jpeg, size, &pos);
        if (marker < 0 || marker == 0xDA || marker == 0xD9) return VGN_JPEG_DC_KIND_NONE;
        if (vgn_dc_read_segment(&st, marker, jpeg, size, &pos, NULL) != 0) return VGN_JPEG_DC_KIND_NONE;
    }
    if (st.ncomp != 1 && st.ncomp != 3) return VGN_JPEG_DC_KIND_NONE;
    return st.sof == 0xC2 ? VGN_JPEG_DC_KIND_PROGRESSIVE : VGN_JPEG_DC_KIND_SEQUENTIAL;
}

/// A sequential scan (vgn_dc_check_sequential_scan) whose DC quantisers libjpeg's 16-bit
/// multiplier holds (jpeg_idct_1x1 is C code, with no 16-bit wrap to copy).
static int check_scan(const vgn_dc_state *st, const vgn_dc_scan *scan) {
    if (vgn_dc_check_sequential_scan(st, scan) != 0) return -1;
    for (int i = 0; i < scan->count; i++)
        if (st->quant_dc[st->comp[i].tq] > 32767) return -1;
    return 0;
}

typedef struct {
    const vgn_dc_scan *scan;
    const tables *tables;
    const output *out;
    int h[3], v[3];
    uint16_t pred[3];
} interval_context;

static int decode_one_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    interval_context *c = context;
    const output *o = &c->out[i];
    int diff;
    if (vgn_dc_decode_dc(r, &c->tables->dc[c->scan->td[i]], &diff) != 0 || skip_ac(r, &c->tables->ac[c->scan->ta[i]]) != 0) return -1;
    c->pred[i] = (uint16_t)(c->pred[i] + (uint16_t)diff);
    if (bx < o->wide && by < o->high) o->plane[(size_t)by * (size_t)o->stride + (size_t)bx] = dc_sample(c->pred[i], o->quant);
    return 0;
}

/// Decodes the MCUs [first, first + count) of one restart interval from `r`.
static int decode_interval(void *context, vgn_dc_reader *r, long first, long count, int per_row) {
    interval_context *c = context;
    memset(c->pred, 0, sizeof c->pred);
    return vgn_dc_decode_blocks(r, c->scan, c->h, c->v, first, count, per_row, decode_one_block, c);
}

int vgn_jpeg_dc_decode(
    const uint8_t *jpeg, size_t size, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]) {
    if (jpeg == NULL || planes == NULL || strides == NULL || widths == NULL || heights == NULL) return VGN_JPEG_DC_DECLINED;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_scan scan;
    size_t pos = vgn_dc_read_header(jpeg, size, &st, &scan);
    if (pos == 0 || check_scan(&st, &scan) != 0 || plane_count != st.ncomp) return VGN_JPEG_DC_DECLINED;
    output out[3];
    for (int c = 0; c < st.ncomp; c++) {
        if (planes[c] == NULL || widths[c] < 1 || heights[c] < 1 || strides[c] < widths[c]) return VGN_JPEG_DC_DECLINED;
        int wide = vgn_dc_blocks_wide(&st, c), high = vgn_dc_blocks_high(&st, c);
        out[c] = (output){
            .plane = planes[c], .stride = strides[c], .width = widths[c], .height = heights[c],
            .wide = wide < widths[c] ? wide : widths[c], .high = high < heights[c] ? high : heights[c],
            .h = st.comp[c].h, .v = st.comp[c].v, .quant = st.quant_dc[st.comp[c].tq]};
    }
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_range_limit);
    tables *t = malloc(sizeof *t);
    uint8_t *scratch = malloc(size - pos + 8);
    int status = VGN_JPEG_DC_NO_MEMORY;
    if (t == NULL || scratch == NULL) goto done;
    int built = 0;   // bit n: DC table n, bit 4 + n: AC table n
    for (int i = 0; i < scan.count; i++) {
        if (!(built & 1 << scan.td[i])) vgn_dc_build_huffman(&st.dc[scan.td[i]], &t->dc[scan.td[i]]);
        if (!(built & 16 << scan.ta[i])) build_ac(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]]);
        built |= 1 << scan.td[i] | 16 << scan.ta[i];
    }
    status = VGN_JPEG_DC_DECLINED;
    interval_context context = {.scan = &scan, .tables = t, .out = out};
    for (int i = 0; i < scan.count; i++) {
        context.h[i] = out[i].h;
        context.v[i] = out[i].v;
    }
    if (vgn_dc_decode_scan(jpeg, size, pos, &st, &scan, scratch, decode_interval, &context) != 0) goto done;
    for (int c = 0; c < st.ncomp; c++)
        vgn_dc_pad_plane(out[c].plane, out[c].stride, out[c].width, out[c].height, out[c].wide, out[c].high);
    status = VGN_JPEG_DC_OK;
done:
    free(scratch);
    free(t);
    return status;
}
