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

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define DC_LOOKAHEAD 9
#define AC_LOOKAHEAD 12

/// A Huffman table for decoding: codes up to the lookahead by one lookup, longer ones by
/// libjpeg's maxcode/valoffset walk (jpeg_huff_decode).
typedef struct {
    uint16_t fast[1 << DC_LOOKAHEAD];   // (extra bits << 8) | (length + extra bits); 0: longer code or none
    int32_t maxcode[18];                // largest code of each length, -1 for none; [17] ends the walk
    int32_t valoffset[18];
    uint8_t values[256];
} huffman;

/// An AC table for skipping: one lookup of AC_LOOKAHEAD bits gives every symbol whose code lies
/// whole within them, each with its extra bits (the last one's may reach past the lookahead),
/// stopping after an end of block: the bits they take and how far they move the coefficient index
/// (run + 1, 16 for ZRL, 64 for EOB), in all and before the last symbol, and the same for the
/// first symbol alone. The whole run is taken while every symbol but the last leaves the block
/// open (past the end of a block the bits are the next block's DC); else only the first.
typedef struct {
    uint32_t skip[1 << AC_LOOKAHEAD];   // see AC_* below; 0: first code longer than the lookahead or none
    huffman slow;
} ac_table;

// The bits in all come lowest, so that a shift by the entry (which x86 takes modulo 64) drops them.
#define AC_BITS(e) ((int)((e) & 63))
#define AC_BITS1(e) ((int)(((e) >> 6) & 31))
#define AC_ADVANCE(e) ((int)(((e) >> 11) & 127))
#define AC_BEFORE_LAST(e) ((int)(((e) >> 18) & 127))
#define AC_ADVANCE1(e) ((int)((e) >> 25))

typedef struct {
    huffman dc[4];
    ac_table ac[4];
} tables;

/// Canonical codes of `spec` (figure C.2), calling `emit(code, length, symbol)` for those of at
/// most `lookahead` bits, and libjpeg's maxcode/valoffset.
static void build_huffman(const vgn_dc_huffman_spec *spec, huffman *h) {
    int32_t code = 0;
    int p = 0;
    memset(h->fast, 0, sizeof h->fast);
    for (int l = 1; l <= 16; l++) {
        int n = spec->bits[l];
        if (n) {
            h->valoffset[l] = p - code;
            for (int i = 0; i < n; i++, p++, code++) {
                if (l > DC_LOOKAHEAD) continue;
                int shift = DC_LOOKAHEAD - l;
                for (int32_t e = code << shift; e < (code + 1) << shift; e++)
                    h->fast[e] = (uint16_t)((spec->values[p] & 15) << 8 | (l + (spec->values[p] & 15)));
            }
            h->maxcode[l] = code - 1;
        } else {
            h->maxcode[l] = -1;
            h->valoffset[l] = 0;
        }
        code <<= 1;
    }
    h->maxcode[17] = INT32_MAX;
    h->valoffset[17] = 0;
    memcpy(h->values, spec->values, sizeof h->values);
}

/// How far an AC symbol moves the coefficient index: run + 1, 16 for ZRL, 64 for EOB.
static int ac_advance(int symbol) {
    int run = symbol >> 4, extra = symbol & 15;
    return extra ? run + 1 : (run == 15 ? 16 : 64);
}

/// The symbol whose code starts the AC_LOOKAHEAD bits `value` (zero bits past `bits` valid ones):
/// its code length in `*length`, or -1 when no code of at most `bits` bits matches. `single` holds
/// (length << 8 | symbol) for every value, 0 for a code longer than the lookahead.
static inline int symbol_at(const uint16_t *single, uint32_t value, int bits, int *length) {
    uint16_t e = single[value & ((1u << AC_LOOKAHEAD) - 1)];
    if (e == 0 || (e >> 8) > bits) return -1;
    *length = e >> 8;
    return e & 0xFF;
}

static void build_ac(const vgn_dc_huffman_spec *spec, ac_table *t) {
    build_huffman(spec, &t->slow);
    // One symbol for each value of the lookahead first: the canonical codes of at most
    // AC_LOOKAHEAD bits (figure C.2), each filling the values it starts.
    uint16_t single[1 << AC_LOOKAHEAD];
    memset(single, 0, sizeof single);
    int32_t code = 0;
    int p = 0;
    for (int l = 1; l <= AC_LOOKAHEAD; l++, code <<= 1) {
        for (int i = 0; i < spec->bits[l]; i++, p++, code++) {
            int shift = AC_LOOKAHEAD - l;
            for (int32_t e = code << shift; e < (code + 1) << shift; e++) single[e] = (uint16_t)(l << 8 | spec->values[p]);
        }
    }
    for (uint32_t value = 0; value < (1u << AC_LOOKAHEAD); value++) {
        int length;
        int symbol = symbol_at(single, value, AC_LOOKAHEAD, &length);
        if (symbol < 0) {
            t->skip[value] = 0;
            continue;
        }
        int bits = length + (symbol & 15), advance = ac_advance(symbol);
        int bits1 = bits, advance1 = advance, before_last = 0;
        // More symbols while the block is open and the next code lies within the lookahead.
        while (advance < 64 && bits < AC_LOOKAHEAD) {
            symbol = symbol_at(single, value << bits, AC_LOOKAHEAD - bits, &length);
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

/// Bits of one unstuffed segment, most significant first; zero bits past its end.
typedef struct {
    const uint8_t *data;
    size_t size, pos;   // pos: next byte to load (may pass size while feeding zeros)
    uint64_t bits;      // left-aligned
    int count;          // valid bits in `bits`
} reader;

static uint64_t load_be64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return __builtin_bswap64(w);
}

/// Tops `bits` up to at least 56 bits. Where 8 bytes remain this is one load and no branch on the
/// bit count (a refill before every symbol is cheaper than mispredicting whether it is needed);
/// the bits below `count` that a word load leaves are those of the next byte, which the next load
/// ORs in again unchanged. Past the end, bytes go in one at a time, zero beyond the data.
static inline void refill(reader *r) {
    if (__builtin_expect(r->pos + 8 <= r->size, 1)) {
        r->bits |= load_be64(r->data + r->pos) >> r->count;
        r->pos += (size_t)((63 - r->count) >> 3);
        r->count |= 56;   // count + 8 * the bytes loaded, for a count below 64
        return;
    }
    while (r->count <= 56) {
        uint64_t byte = r->pos < r->size ? r->data[r->pos] : 0;
        r->bits |= byte << (56 - r->count);
        r->pos++;
        r->count += 8;
    }
}

static inline uint32_t peek(const reader *r, int n) { return (uint32_t)(r->bits >> (64 - n)); }

static inline void drop(reader *r, int n) {
    r->bits <<= n;
    r->count -= n;
}

/// Bits consumed past the end of the data (> 0: the decode needed data that is not there).
static inline long overrun(const reader *r) { return (long)(8 * r->pos) - r->count - (long)(8 * r->size); }

/// A code longer than the lookahead, as jpeg_huff_decode walks it; -1 for a bad code.
static int decode_slow(reader *r, const huffman *h, int from) {
    for (int l = from; l <= 16; l++) {
        int32_t code = (int32_t)peek(r, l);
        if (code <= h->maxcode[l]) {
            drop(r, l);
            return h->values[(code + h->valoffset[l]) & 0xFF];
        }
    }
    return -1;
}

/// One block's DC difference (F.2.2.1); -1 for a bad code. Leaves at least 32 bits in the buffer,
/// enough for one AC lookup.
static inline int decode_dc(reader *r, const huffman *h, int *diff) {
    refill(r);
    uint32_t e = h->fast[peek(r, DC_LOOKAHEAD)];
    int s;
    uint32_t v;
    if (__builtin_expect(e != 0, 1)) {
        // The code and its s extra bits in one step: the value is the low s of the first e & 63 bits.
        int taken = (int)(e & 63);
        s = (int)(e >> 8);
        v = (uint32_t)(r->bits >> (64 - taken)) & ((1u << s) - 1);
        drop(r, taken);
    } else {
        s = decode_slow(r, h, DC_LOOKAHEAD + 1);
        if (s < 0) return -1;
        s &= 15;
        v = s ? peek(r, s) : 0;
        drop(r, s);
        refill(r);   // up to 31 bits taken
    }
    // HUFF_EXTEND, without a branch: values below 2^(s-1) are negative, v - 2^s + 1 (0 for s = 0).
    int negative = ((int)v - ((1 << s) >> 1)) >> 31;
    *diff = (int)v + (negative & (1 - (1 << s)));
    return 0;
}

/// One lookup of the AC table: the bits and index advance of its symbols, or 0 when the first code
/// is longer than the lookahead. Takes at most AC_LOOKAHEAD + 15 bits from the buffer.
static inline int skip_fast(reader *r, const ac_table *t, int *k) {
    uint32_t e = t->skip[peek(r, AC_LOOKAHEAD)];
    if (e == 0) return 0;
    // All of them, unless one before the last ends the block: then only the first (rare: a block
    // that ends at its 63rd coefficient without an EOB).
    if (__builtin_expect(*k + AC_BEFORE_LAST(e) < 64, 1)) {
        drop(r, AC_BITS(e));
        *k += AC_ADVANCE(e);
    } else {
        drop(r, AC_BITS1(e));
        *k += AC_ADVANCE1(e);
    }
    return 1;
}

/// Skips one block's AC symbols, counting coefficients as decode_mcu does; -1 for a bad code.
/// A refill leaves at least 56 bits, enough for two table lookups (AC_LOOKAHEAD + 15 bits each):
/// the refill, a load on the decoding's critical path, comes once every two, and not before the
/// first lookup (decode_dc leaves enough bits for one).
static inline int skip_ac(reader *r, const ac_table *t) {
    int k = 1;
    skip_fast(r, t, &k);   // when the code is longer than the lookahead, k stays 1: the loop takes it
    while (k < 64) {
        refill(r);
        if (skip_fast(r, t, &k)) {
            if (k >= 64 || skip_fast(r, t, &k)) continue;
            refill(r);
        }
        int symbol = decode_slow(r, &t->slow, AC_LOOKAHEAD + 1);
        if (symbol < 0) return -1;
        drop(r, symbol & 15);
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

/// Copies the entropy-coded bytes from `pos` to the next marker into `out`, unstuffed. Sets the
/// byte count, the marker and the offset after it; -1 when the input ends first or 0xFF 0xFF 0x00
/// (a data byte to libjpeg, not taken here) appears.
static int unstuff(const uint8_t *in, size_t size, size_t pos, uint8_t *out, size_t *length, int *marker, size_t *after) {
    size_t o = 0;
    while (pos < size) {
        const uint8_t *ff = memchr(in + pos, 0xFF, size - pos);
        if (ff == NULL) return -1;
        size_t at = (size_t)(ff - in);
        memcpy(out + o, in + pos, at - pos);
        o += at - pos;
        size_t next = at + 1;
        if (next < size && in[next] == 0x00) {
            out[o++] = 0xFF;
            pos = next + 1;
            continue;
        }
        while (next < size && in[next] == 0xFF) next++;
        if (next >= size || in[next] == 0x00) return -1;
        *length = o;
        *marker = in[next];
        *after = next + 1;
        return 0;
    }
    return -1;
}

/// Where a component's samples go: its plane, and the blocks that are in it.
typedef struct {
    uint8_t *plane;
    int stride, width, height;   // plane
    int wide, high;              // blocks written: min(plane, blocks of the component)
    int h, v;
    int quant;
} output;

/// Repeats the last written column and row into the rest of the plane.
static void pad_plane(const output *out) {
    for (int y = 0; y < out->high; y++) {
        uint8_t *row = out->plane + (size_t)y * (size_t)out->stride;
        memset(row + out->wide, row[out->wide - 1], (size_t)(out->width - out->wide));
    }
    for (int y = out->high; y < out->height; y++)
        memcpy(out->plane + (size_t)y * (size_t)out->stride, out->plane + (size_t)(out->high - 1) * (size_t)out->stride,
               (size_t)out->width);
}

/// Reads the markers up to the first SOS into `st` and `scan`; the offset after the SOS header,
/// or 0 when declined.
static size_t read_header(const uint8_t *in, size_t size, vgn_dc_state *st, vgn_dc_scan *scan) {
    if (size < 4 || in[0] != 0xFF || in[1] != 0xD8) return 0;
    size_t pos = 2;
    for (;;) {
        int marker = vgn_dc_next_marker(in, size, &pos);
        if (marker < 0 || marker == 0xD9) return 0;
        if (vgn_dc_read_segment(st, marker, in, size, &pos, scan) != 0) return 0;
        if (marker == 0xDA) return pos;
    }
}

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

/// The scan must be one sequential scan of every component in frame order (get_sos allows no
/// other order for all of them), Ss=0, Se=63, Ah=Al=0 (else JWRN_NOT_SEQUENTIAL), with valid
/// tables and a DC quantiser that libjpeg's 16-bit multiplier holds.
static int check_scan(const vgn_dc_state *st, const vgn_dc_scan *scan) {
    if ((st->sof != 0xC0 && st->sof != 0xC1) || (st->ncomp != 1 && st->ncomp != 3) || scan->count != st->ncomp) return -1;
    if (scan->ss != 0 || scan->se != 63 || scan->ah != 0 || scan->al != 0) return -1;
    for (int i = 0; i < scan->count; i++) {
        if (scan->comp[i] != i || scan->td[i] >= 4 || scan->ta[i] >= 4) return -1;
        if (!vgn_dc_huffman_valid(&st->dc[scan->td[i]], 1) || !vgn_dc_huffman_valid(&st->ac[scan->ta[i]], 0)) return -1;
        int tq = st->comp[i].tq;
        if (!st->quant_defined[tq] || st->quant_dc[tq] > 32767) return -1;
    }
    return 0;
}

/// Decodes the MCUs [first, first + count) of one restart interval from `r`.
static int decode_interval(
    reader *r, const vgn_dc_state *st, const vgn_dc_scan *scan, const tables *t, const output *out, long first,
    long count, int per_row) {
    uint16_t pred[3] = {0, 0, 0};
    int mx = (int)(first % per_row), my = (int)(first / per_row);
    for (long m = first; m < first + count; m++, mx = mx + 1 == per_row ? (my++, 0) : mx + 1) {
        for (int i = 0; i < scan->count; i++) {
            const output *o = &out[i];
            const huffman *dc = &t->dc[scan->td[i]];
            const ac_table *ac = &t->ac[scan->ta[i]];
            int h = scan->count == 1 ? 1 : o->h, v = scan->count == 1 ? 1 : o->v;
            for (int y = 0; y < v; y++) {
                for (int x = 0; x < h; x++) {
                    int diff;
                    if (decode_dc(r, dc, &diff) != 0 || skip_ac(r, ac) != 0) return -1;
                    pred[i] = (uint16_t)(pred[i] + (uint16_t)diff);
                    int bx = mx * h + x, by = my * v + y;
                    if (bx < o->wide && by < o->high) o->plane[(size_t)by * (size_t)o->stride + (size_t)bx] = dc_sample(pred[i], o->quant);
                }
            }
        }
        if (overrun(r) > 0) return -1;
    }
    (void)st;
    // No whole byte may be left before the marker (libjpeg counts it as extraneous data).
    return overrun(r) <= -8 ? -1 : 0;
}

int vgn_jpeg_dc_decode(
    const uint8_t *jpeg, size_t size, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]) {
    if (jpeg == NULL || planes == NULL || strides == NULL || widths == NULL || heights == NULL) return VGN_JPEG_DC_DECLINED;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_scan scan;
    size_t pos = read_header(jpeg, size, &st, &scan);
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
        if (!(built & 1 << scan.td[i])) build_huffman(&st.dc[scan.td[i]], &t->dc[scan.td[i]]);
        if (!(built & 16 << scan.ta[i])) build_ac(&st.ac[scan.ta[i]], &t->ac[scan.ta[i]]);
        built |= 1 << scan.td[i] | 16 << scan.ta[i];
    }
    status = VGN_JPEG_DC_DECLINED;
    int per_row;
    long total = vgn_dc_mcus_in_scan(&st, &scan, &per_row), done_mcus = 0;
    int next_restart = 0;
    while (done_mcus < total) {
        long count = st.restart_interval ? total - done_mcus < st.restart_interval ? total - done_mcus : st.restart_interval
                                         : total;
        size_t length, after;
        int marker;
        if (unstuff(jpeg, size, pos, scratch, &length, &marker, &after) != 0) goto done;
        reader r = {.data = scratch, .size = length, .pos = 0, .bits = 0, .count = 0};
        if (decode_interval(&r, &st, &scan, t, out, done_mcus, count, per_row) != 0) goto done;
        done_mcus += count;
        if (done_mcus < total) {
            if (marker != 0xD0 + next_restart) goto done;
            next_restart = (next_restart + 1) & 7;
        } else if (marker != 0xD9) {
            goto done;
        }
        pos = after;
    }
    for (int c = 0; c < st.ncomp; c++) pad_plane(&out[c]);
    status = VGN_JPEG_DC_OK;
done:
    free(scratch);
    free(t);
    return status;
}
