// The progressive Huffman decoder at 1/4 and 1/2 (SOF2; 8-bit; 1 or 3 components; the sampling
// factors scaled.c takes; restart intervals): every scan decoded as libjpeg-turbo 2.1's jdphuff.c
// decodes it (DC first and refinement, AC first and refinement with EOB runs), into a coefficient
// store that keeps per block only the coefficients the reduced IDCT reads, and, for the
// refinement scans, which of all 63 AC coefficients are nonzero (one bit each). After EOI each
// block goes through the same IDCT as in scaled.c.
//
// It declines wherever libjpeg-turbo would warn or fail (the checks of start_pass_phuff_decoder,
// a bad Huffman code, a refinement symbol of a size other than 1, bits needed past the end of a
// segment, a whole unused byte before a marker, a missing or misnumbered restart marker, an
// overflowing DC prediction, no EOI), and where libjpeg-turbo would smooth the blocks
// (jdcoefct.c's smoothing_ok: a component whose DC or AC coefficients 1..9 are not all fully
// refined at the end), so that every file it takes gives tjDecompressToYUVPlanes' planes.
//
// The store is calloc'ed once the frame header is read, and only when the input could hold the
// DC scans of every block (one bit a block at least): its size is bounded by the input's length.
#include "vgn_jpeg_dc.h"
#include "entropy.h"
#include "idct_reduced.h"
#include "scaled_output.h"

#include <stdlib.h>
#include <string.h>

#define AC_LOOKAHEAD 12

/// One component's coefficients.
typedef struct {
    int16_t *coef;        // `slots` a block, row by row: the coefficients the IDCT reads, DC first
    uint64_t *nonzero;    // a block's AC coefficients that are nonzero: bit k for zigzag index k
    int wide, high;       // libjpeg's width_in_blocks, height_in_blocks
} store;

/// One scan being decoded.
typedef struct {
    const vgn_dc_scan *scan;
    store *stores;               // per frame component
    const int8_t *slot;          // zigzag index -> slot in a block's coefficients, -1 when not kept
    int slots;
    uint64_t kept_ac;            // zigzag indices of the AC coefficients kept
    uint64_t band;               // zigzag indices Ss..Se
    const vgn_dc_huffman *dc;    // the four DC tables as the scan found them
    const vgn_dc_huffman *ac;    // the scan's AC table, for codes longer than the lookahead
    const uint32_t *ac_entries;  // the scan's symbols by their first AC_LOOKAHEAD bits (see ENTRY_*)
    int h[3], v[3];
    int32_t pred[3];             // libjpeg's last_dc_val
    unsigned eobrun;
    int ss, se, al;
} scan_context;

/// The store's block (bx, by) of the scan's `i`th component: its index, or -1 for a block an
/// interleaved scan pads the MCU with (decoded, not kept).
static inline long block_index(const scan_context *c, int i, int bx, int by) {
    const store *s = &c->stores[c->scan->comp[i]];
    return bx < s->wide && by < s->high ? (long)by * s->wide + bx : -1;
}

/// One bit, the reader topped up when it runs low.
static inline int one_bit(vgn_dc_reader *r) {
    if (__builtin_expect(r->count < 8, 0)) vgn_dc_refill(r);
    int bit = (int)(r->bits >> 63);
    vgn_dc_drop(r, 1);
    return bit;
}

/// AC table entries, one for each value of the first AC_LOOKAHEAD bits: bits 0-4 how many bits
/// the symbol takes with its extra bits (0: the code is longer, libjpeg's walk decodes it), 5-8
/// its run, 9-10 its kind, 16-31 its value: the coefficient's (in a first scan the extended value,
/// in a refinement 1 or -1) or the EOB run's length (2^r and the r bits).
#define ENTRY_VALUE 0
#define ENTRY_ZRL 1
#define ENTRY_EOB 2
/// The extra bits pass the lookahead (or, in a refinement, the size is not 1): the bits hold the
/// code alone, and bits 16-23 the symbol.
#define ENTRY_PARTIAL 3

/// Fills `entries` for the AC table `spec` of a first scan or a refinement (`refine`).
static void build_entries(const vgn_dc_huffman_spec *spec, int refine, uint32_t *entries) {
    uint16_t single[1 << AC_LOOKAHEAD];
    vgn_dc_build_lookup(spec, AC_LOOKAHEAD, single);
    for (uint32_t v = 0; v < 1u << AC_LOOKAHEAD; v++) {
        int length, symbol = vgn_dc_symbol_at(single, AC_LOOKAHEAD, v, AC_LOOKAHEAD, &length);
        if (symbol < 0) {
            entries[v] = 0;
            continue;
        }
        int run = symbol >> 4, size = symbol & 15;
        int extra = size ? (refine ? 1 : size) : run == 15 ? 0 : run;
        int kind = size ? ENTRY_VALUE : run == 15 ? ENTRY_ZRL : ENTRY_EOB;
        if (length + extra > AC_LOOKAHEAD || (refine && size > 1)) {
            entries[v] = (uint32_t)length | ENTRY_PARTIAL << 9 | (uint32_t)symbol << 16;
            continue;
        }
        uint32_t bits = extra ? (v >> (AC_LOOKAHEAD - length - extra)) & ((1u << extra) - 1) : 0;
        int value = kind == ENTRY_EOB ? (1 << run) + (int)bits : kind == ENTRY_ZRL ? 0 : refine ? (bits ? 1 : -1) : vgn_dc_extend(bits, size);
        entries[v] = (uint32_t)(length + extra) | (uint32_t)run << 5 | (uint32_t)kind << 9 | (uint32_t)value << 16;
    }
}

/// The next AC symbol with its extra bits: its kind (ENTRY_VALUE, ENTRY_ZRL, ENTRY_EOB), run and
/// value, or -1 for a bad code or, in a refinement, a size other than 1 (JWRN_HUFF_BAD_CODE).
static inline __attribute__((always_inline)) int next_symbol(vgn_dc_reader *r, const scan_context *c, int refine, int *run,
                                                             int *value) {
    vgn_dc_refill(r);
    uint32_t e = c->ac_entries[vgn_dc_peek(r, AC_LOOKAHEAD)];
    int symbol;
    if (__builtin_expect((e & 31) != 0, 1)) {
        vgn_dc_drop(r, (int)(e & 31));
        *run = (int)(e >> 5 & 15);
        *value = (int32_t)e >> 16;
        int kind = (int)(e >> 9 & 3);
        if (__builtin_expect(kind != ENTRY_PARTIAL, 1)) return kind;
        symbol = (int)(e >> 16 & 0xFF);
    } else {
        symbol = vgn_dc_decode_slow(r, c->ac, AC_LOOKAHEAD + 1);
        if (symbol < 0) return -1;
    }
    int size = symbol & 15;
    *run = symbol >> 4;
    if (size) {
        if (refine) {
            if (size != 1) return -1;
            *value = one_bit(r) ? 1 : -1;
        } else {
            *value = vgn_dc_extend(vgn_dc_peek(r, size), size);
            vgn_dc_drop(r, size);
        }
        return ENTRY_VALUE;
    }
    if (*run == 15) return ENTRY_ZRL;
    *value = 1 << *run;
    if (*run) {
        *value += (int)vgn_dc_peek(r, *run);
        vgn_dc_drop(r, *run);
    }
    return ENTRY_EOB;
}

/// decode_mcu_DC_first, one block.
static inline __attribute__((always_inline)) int dc_first_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    scan_context *c = context;
    int diff;
    if (vgn_dc_decode_dc(r, &c->dc[c->scan->td[i]], &diff) != 0) return -1;
    int64_t pred = (int64_t)c->pred[i] + diff;
    if (pred > INT32_MAX || pred < INT32_MIN) return -1;   // JERR_BAD_DCT_COEF
    c->pred[i] = (int32_t)pred;
    long b = block_index(c, i, bx, by);
    if (b >= 0) c->stores[c->scan->comp[i]].coef[b * c->slots] = (int16_t)(uint16_t)((uint32_t)pred << c->al);
    return 0;
}

/// decode_mcu_DC_refine, one block.
static inline __attribute__((always_inline)) int dc_refine_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    scan_context *c = context;
    int bit = one_bit(r);
    long b = block_index(c, i, bx, by);
    if (bit && b >= 0) {
        int16_t *dc = &c->stores[c->scan->comp[i]].coef[b * c->slots];
        *dc = (int16_t)(*dc | 1 << c->al);
    }
    return 0;
}

/// decode_mcu_AC_first, one block (an AC scan has one component and no padding blocks).
static inline __attribute__((always_inline)) int ac_first_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    scan_context *c = context;
    if (c->eobrun > 0) {
        c->eobrun--;
        return 0;
    }
    store *s = &c->stores[c->scan->comp[0]];
    long b = block_index(c, i, bx, by);
    if (b < 0) return -1;
    int16_t *coef = s->coef + b * c->slots;
    uint64_t nonzero = s->nonzero[b];
    for (int k = c->ss; k <= c->se; k++) {
        int run, value, kind = next_symbol(r, c, 0, &run, &value);
        if (kind == ENTRY_VALUE) {
            k += run;
            int16_t stored = (int16_t)(uint16_t)((uint32_t)value << c->al);
            int z = k < 64 ? k : 63;   // libjpeg's extra natural_order entries
            if (c->slot[z] >= 0) coef[c->slot[z]] = stored;
            nonzero = stored ? nonzero | 1ull << z : nonzero & ~(1ull << z);
        } else if (kind == ENTRY_ZRL) {
            k += 15;
        } else if (kind == ENTRY_EOB) {
            c->eobrun = (unsigned)value - 1;
            break;
        } else {
            return -1;
        }
    }
    s->nonzero[b] = nonzero;
    return 0;
}

/// A correction bit for the nonzero coefficient at zigzag index `k`: its magnitude grows by 2^Al
/// unless that bit is already set.
static inline __attribute__((always_inline)) void correct(const scan_context *c, int16_t *coef, int k, int bit) {
    if (!bit || c->slot[k] < 0) return;
    int16_t *at = &coef[c->slot[k]];
    int p1 = 1 << c->al;
    if ((*at & p1) == 0) *at = (int16_t)(*at >= 0 ? *at + p1 : *at - p1);
}

#if defined(__x86_64__)
__attribute__((target("bmi2"))) static inline uint64_t deposit_bmi2(uint64_t bits, uint64_t mask) {
    return __builtin_ia32_pdep_di(bits, mask);
}
#endif

/// The correction bits of the nonzero coefficients `passed` (bit k: zigzag index k), one each in
/// zigzag order: taken at once, and only those of coefficients the IDCT reads looked at (where
/// BMI2 runs, only those whose bit is 1: the bits deposited onto `passed` by pdep).
static inline __attribute__((always_inline)) void corrections(vgn_dc_reader *r, const scan_context *c, int16_t *coef,
                                                              uint64_t passed, int bmi2) {
    int n = __builtin_popcountll(passed);
    if (n == 0) return;
    if (r->count < n) vgn_dc_refill(r);   // 56 bits or more
    if (__builtin_expect(n > 56, 0)) {
        for (; passed; passed &= passed - 1) correct(c, coef, __builtin_ctzll(passed), one_bit(r));
        return;
    }
    uint64_t bits = r->bits;   // bit 63 - i: the ith coefficient passed
    vgn_dc_drop(r, n);
#if defined(__x86_64__)
    if (bmi2) {
        uint64_t ones = deposit_bmi2(__builtin_bitreverse64(bits), passed) & c->kept_ac;
        for (; ones; ones &= ones - 1) correct(c, coef, __builtin_ctzll(ones), 1);
        return;
    }
#endif
    (void)bmi2;
    for (uint64_t kept = passed & c->kept_ac; kept; kept &= kept - 1) {
        int k = __builtin_ctzll(kept);
        correct(c, coef, k, (int)(bits << __builtin_popcountll(passed & ((1ull << k) - 1)) >> 63));
    }
}

#if defined(__x86_64__)
__attribute__((target("bmi2"))) static inline uint64_t nth_bit_bmi2(uint64_t bits, int n) { return __builtin_ia32_pdep_di(1ull << n, bits); }
#endif

/// The (n + 1)th lowest set bit of `bits` alone, 0 when it has fewer: one pdep where BMI2 runs.
static inline __attribute__((always_inline)) uint64_t nth_bit(uint64_t bits, int n, int bmi2) {
#if defined(__x86_64__)
    if (bmi2) return nth_bit_bmi2(bits, n);
#endif
    (void)bmi2;
    for (int j = 0; j < n; j++) bits &= bits - 1;
    return bits & -bits;
}

/// decode_mcu_AC_refine, one block. Its walk over the band (jdphuff.c goes coefficient by
/// coefficient) is done on the block's nonzero bits: a symbol of run r stops at the (r + 1)th
/// zero coefficient from the index, passing the nonzero ones before it.
static inline __attribute__((always_inline)) int ac_refine_block_on(void *context, vgn_dc_reader *r, int i, int bx, int by,
                                                                    int bmi2) {
    scan_context *c = context;
    store *s = &c->stores[c->scan->comp[0]];
    long b = block_index(c, i, bx, by);
    if (b < 0) return -1;
    int16_t *coef = s->coef + b * c->slots;
    uint64_t nonzero = s->nonzero[b];
    int k = c->ss, se = c->se;
    if (c->eobrun == 0) {
        for (; k <= se; k++) {
            int run, value, kind = next_symbol(r, c, 1, &run, &value);
            if (kind < 0) return -1;
            if (kind == ENTRY_EOB) {
                c->eobrun = (unsigned)value;
                break;
            }
            value = kind == ENTRY_VALUE ? value * (1 << c->al) : 0;
            uint64_t rest = c->band & ~0ull << k;   // k..Se
            uint64_t zeros = nth_bit(rest & ~nonzero, run, bmi2);
            int stop = zeros ? __builtin_ctzll(zeros) : se + 1;
            corrections(r, c, coef, nonzero & rest & (stop > 63 ? ~0ull : (1ull << stop) - 1), bmi2);
            k = stop;
            if (value) {
                int z = k < 64 ? k : 63;
                if (c->slot[z] >= 0) coef[c->slot[z]] = (int16_t)value;
                nonzero |= 1ull << z;
            }
        }
    }
    if (c->eobrun > 0) {
        if (k <= se) corrections(r, c, coef, nonzero & c->band & ~0ull << k, bmi2);
        c->eobrun--;
    }
    s->nonzero[b] = nonzero;
    return 0;
}

static inline __attribute__((always_inline)) int ac_refine_block(void *context, vgn_dc_reader *r, int i, int bx, int by) {
    return ac_refine_block_on(context, r, i, bx, by, 0);
}

#if defined(__x86_64__)
__attribute__((target("bmi2"))) static inline __attribute__((always_inline)) int ac_refine_block_bmi2(
    void *context, vgn_dc_reader *r, int i, int bx, int by) {
    return ac_refine_block_on(context, r, i, bx, by, 1);
}
#endif

/// Each restart interval starts with the DC predictions and the EOB run at zero
/// (start_pass_phuff_decoder, process_restart).
#define INTERVAL_DECODER(name, block, attributes)                                                             \
    attributes static int name(void *context, vgn_dc_reader *r, long first, long count, int per_row) {       \
        scan_context *c = context;                                                                            \
        memset(c->pred, 0, sizeof c->pred);                                                                   \
        c->eobrun = 0;                                                                                        \
        vgn_dc_reader local = *r;                                                                             \
        int status = vgn_dc_decode_blocks(&local, c->scan, c->h, c->v, first, count, per_row, block, c);      \
        *r = local;                                                                                           \
        return status;                                                                                        \
    }

INTERVAL_DECODER(dc_first_interval, dc_first_block, )
INTERVAL_DECODER(dc_refine_interval, dc_refine_block, )
INTERVAL_DECODER(ac_first_interval, ac_first_block, )
INTERVAL_DECODER(ac_refine_interval, ac_refine_block, )
#if defined(__x86_64__)
// The same compiled for BMI2 (chosen at run time, as in scaled.c): its shifts by a register, and
// pdep for the refinement's walk.
#define BMI2 __attribute__((target("avx2,bmi2")))
INTERVAL_DECODER(dc_first_interval_bmi2, dc_first_block, BMI2)
INTERVAL_DECODER(dc_refine_interval_bmi2, dc_refine_block, BMI2)
INTERVAL_DECODER(ac_first_interval_bmi2, ac_first_block, BMI2)
INTERVAL_DECODER(ac_refine_interval_bmi2, ac_refine_block_bmi2, BMI2)
#endif

/// The whole file's decoding state.
typedef struct {
    vgn_dc_huffman dc[4], ac;
    uint32_t ac_entries[1 << AC_LOOKAHEAD];
    int8_t slot[64];
    uint8_t position[64];   // slot -> natural position
    int slots;
    uint64_t kept_ac;       // zigzag indices of the AC coefficients the IDCT reads
    int bmi2;               // the decoders compiled for BMI2 run (vgn_jpeg_scaled_vectorised)
    store stores[3];
    void *memory;
} decoder;

/// Allocates the stores of the frame `st` once its header is read; -1 (declined) when the input
/// of `size` bytes cannot hold a bit for every block, -2 when out of memory.
static int allocate(decoder *d, const vgn_dc_state *st, size_t size) {
    size_t blocks = 0;
    for (int c = 0; c < st->ncomp; c++) {
        d->stores[c].wide = vgn_dc_blocks_wide(st, c);
        d->stores[c].high = vgn_dc_blocks_high(st, c);
        blocks += (size_t)d->stores[c].wide * (size_t)d->stores[c].high;
    }
    if (blocks / 8 > size) return -1;
    size_t each = (size_t)d->slots * sizeof(int16_t) + sizeof(uint64_t);
    d->memory = calloc(blocks, each);
    if (d->memory == NULL) return -2;
    uint64_t *nonzero = d->memory;
    int16_t *coef = (int16_t *)(nonzero + blocks);
    for (int c = 0; c < st->ncomp; c++) {
        size_t count = (size_t)d->stores[c].wide * (size_t)d->stores[c].high;
        d->stores[c].nonzero = nonzero;
        d->stores[c].coef = coef;
        nonzero += count;
        coef += count * (size_t)d->slots;
    }
    return 0;
}

/// Decodes one scan from `pos` (after its header); the marker after it and the offset after that.
static int decode_scan(decoder *d, const vgn_dc_state *st, const vgn_dc_scan *scan, const uint8_t *in, size_t size,
                       size_t pos, uint8_t *scratch, int *marker, size_t *after) {
    scan_context c = {
        .scan = scan, .stores = d->stores, .slot = d->slot, .slots = d->slots, .dc = d->dc, .ac = &d->ac,
        .ac_entries = d->ac_entries, .ss = scan->ss, .se = scan->se, .al = scan->al, .kept_ac = d->kept_ac,
        .band = (scan->se == 63 ? ~0ull : (2ull << scan->se) - 1) & ~0ull << scan->ss};
    for (int i = 0; i < scan->count; i++) {
        c.h[i] = st->comp[scan->comp[i]].h;
        c.v[i] = st->comp[scan->comp[i]].v;
    }
    static const vgn_dc_interval_decoder decoders[2][4] = {
        {dc_first_interval, dc_refine_interval, ac_first_interval, ac_refine_interval},
#if defined(__x86_64__)
        {dc_first_interval_bmi2, dc_refine_interval_bmi2, ac_first_interval_bmi2, ac_refine_interval_bmi2},
#endif
    };
    if (scan->ss == 0 && scan->ah == 0)
        for (int i = 0; i < scan->count; i++) vgn_dc_build_huffman(&st->dc[scan->td[i]], &d->dc[scan->td[i]]);
    if (scan->ss != 0) {
        vgn_dc_build_huffman(&st->ac[scan->ta[0]], &d->ac);
        build_entries(&st->ac[scan->ta[0]], scan->ah != 0, d->ac_entries);
    }
    vgn_dc_interval_decoder decode = decoders[d->bmi2][(scan->ss != 0) * 2 + (scan->ah != 0)];
    return vgn_dc_decode_scan_to_marker(in, size, pos, st, scan, scratch, decode, &c, marker, after);
}

/// The IDCT of every block of component `c` that starts inside its plane, two at a time where
/// AVX2 runs; a block with no AC coefficient the IDCT reads gets its one value.
static void write_component(const decoder *d, int c, const output *o, int scale, int avx2) {
    (void)avx2;   // read on x86-64 only
    const store *s = &d->stores[c];
    _Alignas(32) int16_t blocks[2][80];
    memset(blocks, 0, sizeof blocks);
    int at[2][2], waiting = 0;
    uint8_t samples[32];
    for (int by = 0; by < o->high; by++) {
        for (int bx = 0; bx < o->wide; bx++) {
            size_t b = (size_t)by * (size_t)s->wide + (size_t)bx;
            const int16_t *coef = s->coef + b * (size_t)d->slots;
            if (!(s->nonzero[b] & d->kept_ac)) {
                put_dc_only(o, coef[0], scale, bx, by);
                continue;
            }
            for (int j = 0; j < d->slots; j++) blocks[waiting][d->position[j]] = coef[j];
            at[waiting][0] = bx;
            at[waiting][1] = by;
            if (++waiting < 2) continue;
#if defined(__x86_64__)
            if (avx2) {
                if (scale == 4) vgn_jpeg_idct_4x4_pair_avx2(blocks[0], blocks[1], o->quant, o->quant, samples);
                else vgn_jpeg_idct_2x2_pair_avx2(blocks[0], blocks[1], o->quant, o->quant, samples);
            } else
#endif
            {
                for (int n = 0; n < 2; n++) {
                    if (scale == 4) vgn_jpeg_idct_4x4(blocks[n], o->quant, samples + 16 * n, 4);
                    else vgn_jpeg_idct_2x2(blocks[n], o->quant, samples + 4 * n, 2);
                }
            }
            for (int n = 0; n < 2; n++) put_samples(o, samples + n * scale * scale, scale, at[n][0], at[n][1]);
            waiting = 0;
        }
    }
    if (waiting) {
        if (scale == 4) vgn_jpeg_idct_4x4(blocks[0], o->quant, samples, 4);
        else vgn_jpeg_idct_2x2(blocks[0], o->quant, samples, 2);
        put_samples(o, samples, scale, at[0][0], at[0][1]);
    }
}

int vgn_jpeg_scaled_progressive_decode(
    const uint8_t *jpeg, size_t size, int scale, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]) {
    if (!scaled_call_usable(jpeg, scale, planes, strides, widths, heights) || size < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8)
        return VGN_JPEG_DC_DECLINED;
    decoder *d = calloc(1, sizeof *d);
    uint8_t *scratch = malloc(size + 8);
    int status = VGN_JPEG_DC_NO_MEMORY;
    if (d == NULL || scratch == NULL) goto done;
    status = VGN_JPEG_DC_DECLINED;
    d->bmi2 = vgn_jpeg_scaled_vectorised();
    for (int k = 0; k < 64; k++) {
        d->slot[k] = -1;
        if (needed(natural_order[k], scale)) {
            d->slot[k] = (int8_t)d->slots;
            d->position[d->slots++] = natural_order[k];
            if (k > 0) d->kept_ac |= 1ull << k;
        }
    }
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_progression pr;
    memset(&pr, 0xFF, sizeof pr);   // every coef_bits entry -1
    int latched[4] = {0, 0, 0, 0};
    output out[3];
    size_t pos = 2;
    int marker = vgn_dc_next_marker(jpeg, size, &pos);
    while (marker != 0xD9) {
        vgn_dc_scan scan;
        if (marker < 0 || vgn_dc_read_segment(&st, marker, jpeg, size, &pos, &scan) != 0) goto done;
        if (st.sof != 0 && st.sof != 0xC2) goto done;
        if (marker == 0xC2) {
            if (st.ncomp != plane_count || (st.ncomp != 1 && st.ncomp != 3) || !one_idct_size(&st)
                || setup_outputs(&st, scale, planes, strides, widths, heights, out) != 0)
                goto done;
            int allocated = allocate(d, &st, size);
            if (allocated != 0) {
                if (allocated == -2) status = VGN_JPEG_DC_NO_MEMORY;
                goto done;
            }
        }
        if (marker != 0xDA) {
            marker = vgn_dc_next_marker(jpeg, size, &pos);
            continue;
        }
        int before[4];
        memcpy(before, latched, sizeof before);
        if (vgn_dc_check_progression(&pr, &scan) != 0 || vgn_dc_check_scan_tables(&st, &scan, latched) != 0) goto done;
        // A component's quantisation table is latched by its first scan (jdinput.c).
        for (int c = 0; c < st.ncomp; c++)
            if (latched[c] && !before[c])
                for (int k = 0; k < 64; k++) out[c].quant[natural_order[k]] = st.quant[st.comp[c].tq][k];
        if (decode_scan(d, &st, &scan, jpeg, size, pos, scratch, &marker, &pos) != 0) goto done;
    }
    if (d->memory == NULL || st.scans == 0) goto done;
    // No block smoothing: every component's DC and AC 1..9 fully refined.
    for (int c = 0; c < st.ncomp; c++)
        for (int k = 0; k <= 9; k++)
            if (pr.bits[c][k] != 0) goto done;
    int avx2 = vgn_jpeg_idct_has_avx2();
    for (int c = 0; c < st.ncomp; c++) write_component(d, c, &out[c], scale, avx2);
    pad_outputs(out, st.ncomp, scale);
    status = VGN_JPEG_DC_OK;
done:
    if (d != NULL) free(d->memory);
    free(d);
    free(scratch);
    return status;
}
