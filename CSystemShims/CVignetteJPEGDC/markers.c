// The marker walker and segment readers shared by both DC paths (see jpeg_dc_internal.h).
#include "jpeg_dc_internal.h"

#include <string.h>

static int be16(const uint8_t *p) { return (p[0] << 8) | p[1]; }

int vgn_dc_next_marker(const uint8_t *in, size_t size, size_t *pos) {
    size_t i = *pos;
    if (i >= size || in[i] != 0xFF) return -1;
    while (i < size && in[i] == 0xFF) i++;   // fill bytes, which libjpeg skips silently
    if (i >= size || in[i] == 0x00) return -1;
    *pos = i + 1;
    return in[i];
}

// APP0 and APP14: the two libjpeg reads (examine_app0/examine_app14) for the colour space.
static int read_app(vgn_dc_state *st, int marker, const uint8_t *body, size_t length) {
    if (marker == 0xE0 && length >= 14 && memcmp(body, "JFIF\0", 5) == 0) {
        st->saw_jfif = 1;
        if (body[5] != 1) return -1;   // JWRN_JFIF_MAJOR
    }
    if (marker == 0xEE && length >= 12 && memcmp(body, "Adobe", 5) == 0) {
        st->saw_adobe = 1;
        st->adobe_transform = body[11];
    }
    return 0;
}

// DQT, as get_dqt: tables of 64 bytes, or 64 16-bit values when the precision nibble is not 0.
static int read_dqt(vgn_dc_state *st, const uint8_t *body, size_t length) {
    size_t i = 0;
    while (i < length) {
        int pq = body[i] >> 4, tq = body[i] & 15;
        size_t table = pq ? 128 : 64;
        if (tq >= 4 || length - i - 1 < table) return -1;
        st->quant_defined[tq] = 1;
        for (int k = 0; k < 64; k++) st->quant[tq][k] = pq ? (uint16_t)be16(body + i + 1 + 2 * k) : body[i + 1 + k];
        st->quant_dc[tq] = st->quant[tq][0];
        i += 1 + table;
    }
    return 0;
}

// DHT, as get_dht: class/index byte, 16 counts, the symbols; nothing may be left over.
static int read_dht(vgn_dc_state *st, const uint8_t *body, size_t length) {
    size_t i = 0;
    while (length - i > 16) {
        int index = body[i];
        int count = 0;
        for (int l = 1; l <= 16; l++) count += body[i + l];
        size_t rest = length - i - 17;
        if (count > 256 || (size_t)count > rest) return -1;
        int tc = index >> 4, th = index & 15;
        if (tc > 1 || th >= 4) return -1;
        vgn_dc_huffman_spec *spec = tc ? &st->ac[th] : &st->dc[th];
        spec->defined = 1;
        spec->bits[0] = 0;
        memcpy(spec->bits + 1, body + i + 1, 16);
        memset(spec->values, 0, sizeof spec->values);
        memcpy(spec->values, body + i + 17, (size_t)count);
        spec->count = count;
        i += 17 + (size_t)count;
    }
    return i == length ? 0 : -1;
}

// SOF0/1/2, as get_sof and jdinput.c's initial_setup: 8-bit, sides 1..65500, 1 to 4 components
// with sampling factors 1..4, distinct ids (libjpeg renames duplicates; declined here).
static int read_sof(vgn_dc_state *st, int marker, const uint8_t *body, size_t length) {
    if (st->sof != 0 || length < 6) return -1;
    int n = body[5];
    if (body[0] != 8 || n < 1 || n > 4 || length != 6 + 3 * (size_t)n) return -1;
    st->height = be16(body + 1);
    st->width = be16(body + 3);
    if (st->width < 1 || st->height < 1 || st->width > VGN_DC_MAX_DIMENSION || st->height > VGN_DC_MAX_DIMENSION) return -1;
    st->ncomp = n;
    st->hmax = st->vmax = 1;
    for (int c = 0; c < n; c++) {
        const uint8_t *p = body + 6 + 3 * c;
        vgn_dc_component *comp = &st->comp[c];
        comp->id = p[0];
        comp->h = p[1] >> 4;
        comp->v = p[1] & 15;
        comp->tq = p[2];
        if (comp->h < 1 || comp->h > 4 || comp->v < 1 || comp->v > 4 || comp->tq >= 4) return -1;
        for (int d = 0; d < c; d++)
            if (st->comp[d].id == comp->id) return -1;
        if (comp->h > st->hmax) st->hmax = comp->h;
        if (comp->v > st->vmax) st->vmax = comp->v;
    }
    st->sof = marker;
    return 0;
}

// The first SOS is where libjpeg settles the colour space (default_decompress_parms): three
// components with an Adobe marker of an unknown transform and no JFIF marker make it warn.
static int check_first_scan(const vgn_dc_state *st) {
    if (st->ncomp == 3 && !st->saw_jfif && st->saw_adobe && st->adobe_transform > 1) return -1;
    return 0;
}

// SOS, as get_sos (including its way of matching component ids) and per_scan_setup.
static int read_sos(vgn_dc_state *st, const uint8_t *body, size_t length, vgn_dc_scan *scan) {
    if (st->sof == 0 || length < 1) return -1;
    int n = body[0];
    if (n < 1 || n > 4 || length != 4 + 2 * (size_t)n) return -1;
    int taken[4] = {0, 0, 0, 0};
    int blocks = 0;
    for (int i = 0; i < n; i++) {
        int id = body[1 + 2 * i], tables = body[2 + 2 * i];
        int found = -1;
        // get_sos skips a frame component whose index is already a filled scan slot.
        for (int c = 0; c < st->ncomp && c < 4; c++)
            if (st->comp[c].id == id && !(c < i)) { found = c; break; }
        if (found < 0 || taken[found]) return -1;
        taken[found] = 1;
        scan->comp[i] = found;
        scan->td[i] = tables >> 4;
        scan->ta[i] = tables & 15;
        blocks += st->comp[found].h * st->comp[found].v;
    }
    if (n > 1 && blocks > VGN_DC_MAX_BLOCKS_IN_MCU) return -1;
    scan->count = n;
    scan->ss = body[1 + 2 * n];
    scan->se = body[2 + 2 * n];
    scan->ah = body[3 + 2 * n] >> 4;
    scan->al = body[3 + 2 * n] & 15;
    if (st->scans == 0 && check_first_scan(st) != 0) return -1;
    st->scans++;
    return st->scans > VGN_DC_MAX_SCANS ? -1 : 0;
}

int vgn_dc_read_segment(vgn_dc_state *st, int marker, const uint8_t *in, size_t size, size_t *pos, vgn_dc_scan *scan) {
    size_t at = *pos;
    if (at + 2 > size) return -1;
    size_t length = (size_t)be16(in + at);
    if (length < 2 || length > size - at) return -1;
    const uint8_t *body = in + at + 2;
    size_t body_length = length - 2;
    int status;
    if (marker >= 0xE0 && marker <= 0xEF) status = read_app(st, marker, body, body_length);
    else if (marker == 0xFE) status = 0;
    else if (marker == 0xDB) status = read_dqt(st, body, body_length);
    else if (marker == 0xC4) status = read_dht(st, body, body_length);
    else if (marker == 0xDD) {
        status = body_length == 2 ? 0 : -1;
        if (status == 0) st->restart_interval = be16(body);
    } else if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) status = read_sof(st, marker, body, body_length);
    else if (marker == 0xDA && scan != NULL) status = read_sos(st, body, body_length, scan);
    else status = -1;
    if (status != 0) return -1;
    *pos = at + length;
    return 0;
}

int vgn_dc_huffman_valid(const vgn_dc_huffman_spec *spec, int is_dc) {
    if (!spec->defined) return 0;
    // jpeg_make_d_derived_tbl, figure C.2: codes of each length must fit in that length.
    long code = 0;
    int count = 0;
    for (int l = 1; l <= 16; l++) {
        code += spec->bits[l];
        count += spec->bits[l];
        if (spec->bits[l] != 0 && code >= (1L << l)) return 0;
        code <<= 1;
    }
    if (count > 256) return 0;
    if (is_dc)
        for (int i = 0; i < count; i++)
            if (spec->values[i] > 15) return 0;
    return 1;
}

int vgn_dc_blocks_wide(const vgn_dc_state *st, int c) {
    long samples = ((long)st->width * st->comp[c].h + st->hmax - 1) / st->hmax;
    return (int)((samples + 7) / 8);
}

int vgn_dc_blocks_high(const vgn_dc_state *st, int c) {
    long samples = ((long)st->height * st->comp[c].v + st->vmax - 1) / st->vmax;
    return (int)((samples + 7) / 8);
}

long vgn_dc_mcus_in_scan(const vgn_dc_state *st, const vgn_dc_scan *scan, int *per_row) {
    if (scan->count == 1) {
        int c = scan->comp[0];
        *per_row = vgn_dc_blocks_wide(st, c);
        return (long)*per_row * vgn_dc_blocks_high(st, c);
    }
    *per_row = (st->width + 8 * st->hmax - 1) / (8 * st->hmax);
    long rows = (st->height + 8 * st->vmax - 1) / (8 * st->vmax);
    return (long)*per_row * rows;
}
