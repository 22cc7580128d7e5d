// The entropy-decoding pieces the sequential decoders share (the DC-only one in sequential.c,
// the reduced-scale one in scaled.c): Huffman tables for decoding, the bit reader over one
// unstuffed restart interval, the header walk up to the scan, and the plane padding.
#ifndef VGN_JPEG_ENTROPY_H
#define VGN_JPEG_ENTROPY_H

#include "jpeg_dc_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define VGN_DC_LOOKAHEAD 9

/// The bit reader's helpers are always inlined, so that a decoder's reader stays in registers
/// (also in a caller compiled for other target features, which the compiler would not inline into
/// by its own choice).
#define VGN_DC_INLINE static inline __attribute__((always_inline))

/// A Huffman table for decoding: codes up to the lookahead by one lookup, longer ones by
/// libjpeg's maxcode/valoffset walk (jpeg_huff_decode).
typedef struct {
    uint16_t fast[1 << VGN_DC_LOOKAHEAD];   // (extra bits << 8) | (length + extra bits); 0: longer code or none
    int32_t maxcode[18];                    // largest code of each length, -1 for none; [17] ends the walk
    int32_t valoffset[18];
    uint8_t values[256];
} vgn_dc_huffman;

/// Builds `h` from `spec` (canonical codes, figure C.2). `fast` gives DC symbols' extra bits.
void vgn_dc_build_huffman(const vgn_dc_huffman_spec *spec, vgn_dc_huffman *h);

/// The codes of `spec` of at most `lookahead` bits (<= 12): `single[v]` is (length << 8 | symbol)
/// for the code that starts the `lookahead` bits v, 0 where the code is longer or none.
void vgn_dc_build_lookup(const vgn_dc_huffman_spec *spec, int lookahead, uint16_t *single);

/// The symbol whose code starts the `lookahead` bits `value` of a table from vgn_dc_build_lookup
/// (bits past `bits` valid ones are zero): its code length in `*length`, or -1 when no code of at
/// most `bits` bits matches.
VGN_DC_INLINE int vgn_dc_symbol_at(const uint16_t *single, int lookahead, uint32_t value, int bits, int *length) {
    uint16_t e = single[value & ((1u << lookahead) - 1)];
    if (e == 0 || (e >> 8) > bits) return -1;
    *length = e >> 8;
    return e & 0xFF;
}

/// Bits of one unstuffed segment, most significant first; zero bits past its end.
typedef struct {
    const uint8_t *data;
    size_t size, pos;   // pos: next byte to load (may pass size while feeding zeros)
    uint64_t bits;      // left-aligned
    int count;          // valid bits in `bits`
} vgn_dc_reader;

VGN_DC_INLINE uint64_t vgn_dc_load_be64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return __builtin_bswap64(w);
}

/// Tops `bits` up to at least 56 bits. Where 8 bytes remain this is one load and no branch on the
/// bit count (a refill before every symbol is cheaper than mispredicting whether it is needed);
/// the bits below `count` that a word load leaves are those of the next byte, which the next load
/// ORs in again unchanged. Past the end, bytes go in one at a time, zero beyond the data.
VGN_DC_INLINE void vgn_dc_refill(vgn_dc_reader *r) {
    if (__builtin_expect(r->pos + 8 <= r->size, 1)) {
        r->bits |= vgn_dc_load_be64(r->data + r->pos) >> r->count;
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

VGN_DC_INLINE uint32_t vgn_dc_peek(const vgn_dc_reader *r, int n) { return (uint32_t)(r->bits >> (64 - n)); }

VGN_DC_INLINE void vgn_dc_drop(vgn_dc_reader *r, int n) {
    r->bits <<= n;
    r->count -= n;
}

/// Bits consumed past the end of the data (> 0: the decode needed data that is not there).
VGN_DC_INLINE long vgn_dc_overrun(const vgn_dc_reader *r) { return (long)(8 * r->pos) - r->count - (long)(8 * r->size); }

/// The end of a restart interval: no whole byte may be left before the marker (libjpeg counts it
/// as extraneous data and warns); 0, or -1.
VGN_DC_INLINE int vgn_dc_interval_end(const vgn_dc_reader *r) { return vgn_dc_overrun(r) <= -8 ? -1 : 0; }

/// Decodes one block of component `i` (scan order), block (`bx`, `by`) of the component: 0, or -1.
typedef int (*vgn_dc_block_decoder)(void *context, vgn_dc_reader *r, int i, int bx, int by);

/// The blocks of the MCUs [first, first + count) of `scan` (`per_row` MCUs a row) in stream order,
/// each handed to `decode`; `h` and `v` are the scan components' sampling factors (one block an
/// MCU in a single-component scan). Declines (-1) when `decode` does, when an MCU needed bits
/// past the data, or at a whole unused byte at the end. Inline, so that each caller's `decode`
/// is inlined into its loop.
VGN_DC_INLINE int vgn_dc_decode_blocks(vgn_dc_reader *r, const vgn_dc_scan *scan, const int h[3], const int v[3], long first,
                                       long count, int per_row, vgn_dc_block_decoder decode, void *context) {
    int mx = (int)(first % per_row), my = (int)(first / per_row);
    for (long m = first; m < first + count; m++, mx = mx + 1 == per_row ? (my++, 0) : mx + 1) {
        for (int i = 0; i < scan->count; i++) {
            int wide = scan->count == 1 ? 1 : h[i], high = scan->count == 1 ? 1 : v[i];
            for (int y = 0; y < high; y++)
                for (int x = 0; x < wide; x++)
                    if (decode(context, r, i, mx * wide + x, my * high + y) != 0) return -1;
        }
        if (vgn_dc_overrun(r) > 0) return -1;
    }
    return vgn_dc_interval_end(r);
}

/// A code longer than the lookahead, as jpeg_huff_decode walks it; -1 for a bad code.
VGN_DC_INLINE int vgn_dc_decode_slow(vgn_dc_reader *r, const vgn_dc_huffman *h, int from) {
    for (int l = from; l <= 16; l++) {
        int32_t code = (int32_t)vgn_dc_peek(r, l);
        if (code <= h->maxcode[l]) {
            vgn_dc_drop(r, l);
            return h->values[(code + h->valoffset[l]) & 0xFF];
        }
    }
    return -1;
}

/// HUFF_EXTEND without a branch: `s` bits of value `v`; values below 2^(s-1) are negative,
/// v - 2^s + 1 (0 for s = 0).
VGN_DC_INLINE int vgn_dc_extend(uint32_t v, int s) {
    int negative = ((int)v - ((1 << s) >> 1)) >> 31;
    return (int)v + (negative & (1 - (1 << s)));
}

/// One block's DC difference (F.2.2.1); -1 for a bad code. Leaves at least 32 bits in the buffer.
VGN_DC_INLINE int vgn_dc_decode_dc(vgn_dc_reader *r, const vgn_dc_huffman *h, int *diff) {
    vgn_dc_refill(r);
    uint32_t e = h->fast[vgn_dc_peek(r, VGN_DC_LOOKAHEAD)];
    int s;
    uint32_t v;
    if (__builtin_expect(e != 0, 1)) {
        // The code and its s extra bits in one step: the value is the low s of the first e & 63 bits.
        int taken = (int)(e & 63);
        s = (int)(e >> 8);
        v = (uint32_t)(r->bits >> (64 - taken)) & ((1u << s) - 1);
        vgn_dc_drop(r, taken);
    } else {
        s = vgn_dc_decode_slow(r, h, VGN_DC_LOOKAHEAD + 1);
        if (s < 0) return -1;
        s &= 15;
        v = s ? vgn_dc_peek(r, s) : 0;
        vgn_dc_drop(r, s);
        vgn_dc_refill(r);   // up to 31 bits taken
    }
    *diff = vgn_dc_extend(v, s);
    return 0;
}

/// Copies the entropy-coded bytes from `pos` to the next marker into `out`, unstuffed. Sets the
/// byte count, the marker and the offset after it; -1 when the input ends first or 0xFF 0xFF 0x00
/// (a data byte to libjpeg, not taken here) appears.
int vgn_dc_unstuff(const uint8_t *in, size_t size, size_t pos, uint8_t *out, size_t *length, int *marker, size_t *after);

/// Reads the markers up to the first SOS into `st` and `scan`; the offset after the SOS header,
/// or 0 when declined.
size_t vgn_dc_read_header(const uint8_t *in, size_t size, vgn_dc_state *st, vgn_dc_scan *scan);

/// The scan must be one sequential scan of every component in frame order (get_sos allows no
/// other order for all of them), Ss=0, Se=63, Ah=Al=0 (else JWRN_NOT_SEQUENTIAL), of a SOF0/SOF1
/// frame of 1 or 3 components, with valid tables and defined quantisation tables; 0 or -1.
int vgn_dc_check_sequential_scan(const vgn_dc_state *st, const vgn_dc_scan *scan);

/// Decodes one restart interval, the MCUs [first, first + count), from `r`: 0, or -1 to decline.
typedef int (*vgn_dc_interval_decoder)(void *context, vgn_dc_reader *r, long first, long count, int per_row);

/// Walks the entropy-coded data of `scan` from `pos` (after its header): each restart interval
/// unstuffed into `scratch` (at least `size - pos` bytes) and handed to `decode`, then its RSTn in
/// sequence, and EOI after the last. 0, or -1 when `decode` declines or a marker is not the one due.
int vgn_dc_decode_scan(const uint8_t *in, size_t size, size_t pos, const vgn_dc_state *st, const vgn_dc_scan *scan,
                       uint8_t *scratch, vgn_dc_interval_decoder decode, void *context);

/// The same for one scan of several: after the last interval any marker but RSTn may follow; its
/// code goes to `*marker` and the offset after it to `*after`.
int vgn_dc_decode_scan_to_marker(const uint8_t *in, size_t size, size_t pos, const vgn_dc_state *st, const vgn_dc_scan *scan,
                                 uint8_t *scratch, vgn_dc_interval_decoder decode, void *context, int *marker, size_t *after);

/// Repeats column `wide - 1` and row `high - 1` of a `width` x `height` plane into the rest of it.
void vgn_dc_pad_plane(uint8_t *plane, int stride, int width, int height, int wide, int high);

#endif
