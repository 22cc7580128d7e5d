// Progressive JPEGs at 1/8 from their DC scans (vgn_jpeg_dc_progressive_stream): a marker-level
// pass copies SOI, every table and header segment and the scans with Ss = 0, drops the AC scans,
// and ends with EOI. Only the markers are parsed; entropy-coded data is skipped to the next marker.
//
// What makes the copy decode as the whole file does at 1/8, and what is checked for it:
//  - jpeg_idct_1x1 reads only the DC coefficient, which only DC scans set.
//  - Every AC scan of the original must be one libjpeg-turbo accepts without error or warning at
//    the marker level (jdphuff.c's start_pass_phuff_decoder checks, its tables, its restart
//    markers), or the original would fail where the copy succeeds.
//  - Block smoothing (jdcoefct.c) would, in the copy, see no AC data and interpolate the DC
//    values; the copy's quantisation tables get a zero at Q01, which turns smoothing off
//    (smoothing_ok). The original smooths only components that have some AC data in 1..9, whose
//    DC it then leaves alone; a component with none is declined.
#include "vgn_jpeg_dc.h"
#include "jpeg_dc_internal.h"

#include <string.h>

/// The checks of start_pass_phuff_decoder: ERREXIT and WARNMS alike decline.
int vgn_dc_check_progression(vgn_dc_progression *pr, const vgn_dc_scan *scan) {
    int dc = scan->ss == 0;
    if (dc ? scan->se != 0 : (scan->ss > scan->se || scan->se >= 64 || scan->count != 1)) return -1;
    if (scan->ah != 0 && scan->al != scan->ah - 1) return -1;
    if (scan->al > 13) return -1;
    for (int i = 0; i < scan->count; i++) {
        int *bits = pr->bits[scan->comp[i]];
        if (!dc && bits[0] < 0) return -1;
        for (int k = scan->ss; k <= scan->se; k++) {
            int expected = bits[k] < 0 ? 0 : bits[k];
            if (scan->ah != expected) return -1;
            bits[k] = scan->al;
        }
    }
    return 0;
}

/// The Huffman and quantisation tables the scan will use must exist and be valid.
int vgn_dc_check_scan_tables(const vgn_dc_state *st, const vgn_dc_scan *scan, int *latched) {
    for (int i = 0; i < scan->count; i++) {
        int c = scan->comp[i];
        if (scan->td[i] >= 4 || scan->ta[i] >= 4) return -1;
        if (scan->ss == 0 && scan->ah == 0 && !vgn_dc_huffman_valid(&st->dc[scan->td[i]], 1)) return -1;
        if (scan->ss != 0 && !vgn_dc_huffman_valid(&st->ac[scan->ta[i]], 0)) return -1;
        if (!latched[c]) {
            if (!st->quant_defined[st->comp[c].tq]) return -1;
            latched[c] = 1;
        }
    }
    return 0;
}

/// Skips the entropy-coded data from `pos` to the next marker that is not RSTn; counts the RSTn
/// markers in order (0..7 repeating). Returns the offset of the marker's first 0xFF, or 0 when
/// the input ends first or a restart marker is out of sequence.
static size_t skip_entropy(const uint8_t *in, size_t size, size_t pos, long *restarts) {
    long seen = 0;
    while (pos < size) {
        const uint8_t *ff = memchr(in + pos, 0xFF, size - pos);
        if (ff == NULL) return 0;
        size_t at = (size_t)(ff - in), next = at + 1;
        while (next < size && in[next] == 0xFF) next++;
        if (next >= size) return 0;
        int code = in[next];
        if (code == 0x00) { pos = next + 1; continue; }
        if (code >= 0xD0 && code <= 0xD7) {
            if (code - 0xD0 != (int)(seen & 7)) return 0;
            seen++;
            pos = next + 1;
            continue;
        }
        *restarts = seen;
        return at;
    }
    return 0;
}

/// Copies `length` bytes to `out` at `*o`; -1 when they do not fit.
static int put(uint8_t *out, size_t capacity, size_t *o, const uint8_t *bytes, size_t length) {
    if (length > capacity - *o) return -1;
    memcpy(out + *o, bytes, length);
    *o += length;
    return 0;
}

/// Sets each table's Q01 (its second value: zigzag 1 is natural 1) to zero in a DQT body that
/// read_dqt has accepted (`length` bytes of tables).
static void zero_q01(uint8_t *tables, size_t length) {
    size_t i = 0;
    while (i < length) {
        int wide = tables[i] >> 4;
        if (wide) { tables[i + 3] = 0; tables[i + 4] = 0; i += 129; }
        else { tables[i + 2] = 0; i += 65; }
    }
}

size_t vgn_jpeg_dc_progressive_stream(const uint8_t *in, size_t size, uint8_t *out, size_t capacity) {
    if (in == NULL || out == NULL || size < 4 || capacity < size || in[0] != 0xFF || in[1] != 0xD8) return 0;
    vgn_dc_state st;
    memset(&st, 0, sizeof st);
    vgn_dc_progression pr;
    memset(&pr, 0xFF, sizeof pr);   // every coef_bits entry -1
    int latched[4] = {0, 0, 0, 0};
    size_t pos = 2, o = 0;
    if (put(out, capacity, &o, in, 2) != 0) return 0;
    for (;;) {
        int marker = vgn_dc_next_marker(in, size, &pos);
        if (marker < 0) return 0;
        size_t header = pos;   // the length field
        if (marker == 0xD9) break;
        vgn_dc_scan scan;
        if (vgn_dc_read_segment(&st, marker, in, size, &pos, &scan) != 0) return 0;
        if (st.sof != 0 && st.sof != 0xC2) return 0;
        if (marker == 0xC2 && st.ncomp != 1 && st.ncomp != 3) return 0;
        uint8_t code[2] = {0xFF, (uint8_t)marker};
        if (marker != 0xDA) {
            size_t at = o;
            if (put(out, capacity, &o, code, 2) != 0 || put(out, capacity, &o, in + header, pos - header) != 0) return 0;
            if (marker == 0xDB) zero_q01(out + at + 4, pos - header - 2);
            continue;
        }
        if (vgn_dc_check_progression(&pr, &scan) != 0 || vgn_dc_check_scan_tables(&st, &scan, latched) != 0) return 0;
        long restarts = 0;
        size_t end = skip_entropy(in, size, pos, &restarts);
        if (end == 0) return 0;
        int per_row;
        long mcus = vgn_dc_mcus_in_scan(&st, &scan, &per_row);
        long expected = st.restart_interval ? (mcus - 1) / st.restart_interval : 0;
        if (restarts != expected) return 0;
        if (scan.ss == 0) {
            if (put(out, capacity, &o, code, 2) != 0 || put(out, capacity, &o, in + header, end - header) != 0) return 0;
        }
        pos = end;
    }
    if (st.scans == 0) return 0;
    // Smoothing: each component needs a DC scan, and some AC data in coefficients 1..9.
    for (int c = 0; c < st.ncomp; c++) {
        if (pr.bits[c][0] < 0) return 0;
        int any = 0;
        for (int k = 1; k <= 9; k++) any |= pr.bits[c][k] >= 0;
        if (!any) return 0;
    }
    static const uint8_t eoi[2] = {0xFF, 0xD9};
    if (put(out, capacity, &o, eoi, 2) != 0) return 0;
    return o;
}
