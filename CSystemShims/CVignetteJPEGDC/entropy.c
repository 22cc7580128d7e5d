// The entropy-decoding pieces the sequential decoders share (see entropy.h).
#include "entropy.h"

#include <limits.h>

void vgn_dc_build_huffman(const vgn_dc_huffman_spec *spec, vgn_dc_huffman *h) {
    int32_t code = 0;
    int p = 0;
    memset(h->fast, 0, sizeof h->fast);
    for (int l = 1; l <= 16; l++) {
        int n = spec->bits[l];
        if (n) {
            h->valoffset[l] = p - code;
            for (int i = 0; i < n; i++, p++, code++) {
                if (l > VGN_DC_LOOKAHEAD) continue;
                int shift = VGN_DC_LOOKAHEAD - l;
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

void vgn_dc_build_lookup(const vgn_dc_huffman_spec *spec, int lookahead, uint16_t *single) {
    memset(single, 0, sizeof *single << lookahead);
    int32_t code = 0;
    int p = 0;
    for (int l = 1; l <= lookahead; l++, code <<= 1) {
        for (int i = 0; i < spec->bits[l]; i++, p++, code++) {
            int shift = lookahead - l;
            for (int32_t e = code << shift; e < (code + 1) << shift; e++) single[e] = (uint16_t)(l << 8 | spec->values[p]);
        }
    }
}

int vgn_dc_unstuff(const uint8_t *in, size_t size, size_t pos, uint8_t *out, size_t *length, int *marker, size_t *after) {
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

size_t vgn_dc_read_header(const uint8_t *in, size_t size, vgn_dc_state *st, vgn_dc_scan *scan) {
    if (size < 4 || in[0] != 0xFF || in[1] != 0xD8) return 0;
    size_t pos = 2;
    for (;;) {
        int marker = vgn_dc_next_marker(in, size, &pos);
        if (marker < 0 || marker == 0xD9) return 0;
        if (vgn_dc_read_segment(st, marker, in, size, &pos, scan) != 0) return 0;
        if (marker == 0xDA) return pos;
    }
}

int vgn_dc_check_sequential_scan(const vgn_dc_state *st, const vgn_dc_scan *scan) {
    if ((st->sof != 0xC0 && st->sof != 0xC1) || (st->ncomp != 1 && st->ncomp != 3) || scan->count != st->ncomp) return -1;
    if (scan->ss != 0 || scan->se != 63 || scan->ah != 0 || scan->al != 0) return -1;
    for (int i = 0; i < scan->count; i++) {
        if (scan->comp[i] != i || scan->td[i] >= 4 || scan->ta[i] >= 4) return -1;
        if (!vgn_dc_huffman_valid(&st->dc[scan->td[i]], 1) || !vgn_dc_huffman_valid(&st->ac[scan->ta[i]], 0)) return -1;
        if (!st->quant_defined[st->comp[i].tq]) return -1;
    }
    return 0;
}

void vgn_dc_pad_plane(uint8_t *plane, int stride, int width, int height, int wide, int high) {
    for (int y = 0; y < high && wide < width; y++) {
        uint8_t *row = plane + (size_t)y * (size_t)stride;
        memset(row + wide, row[wide - 1], (size_t)(width - wide));
    }
    for (int y = high; y < height; y++)
        memcpy(plane + (size_t)y * (size_t)stride, plane + (size_t)(high - 1) * (size_t)stride, (size_t)width);
}

int vgn_dc_decode_scan_to_marker(const uint8_t *in, size_t size, size_t pos, const vgn_dc_state *st, const vgn_dc_scan *scan,
                                 uint8_t *scratch, vgn_dc_interval_decoder decode, void *context, int *marker, size_t *after) {
    int per_row;
    long total = vgn_dc_mcus_in_scan(st, scan, &per_row), done = 0;
    int next_restart = 0;
    *marker = -1;
    if (total <= 0) return -1;
    while (done < total) {
        long count = st->restart_interval && total - done > st->restart_interval ? st->restart_interval : total - done;
        size_t length;
        if (vgn_dc_unstuff(in, size, pos, scratch, &length, marker, after) != 0) return -1;
        vgn_dc_reader r = {.data = scratch, .size = length, .pos = 0, .bits = 0, .count = 0};
        if (decode(context, &r, done, count, per_row) != 0) return -1;
        done += count;
        if (done < total) {
            if (*marker != 0xD0 + next_restart) return -1;
            next_restart = (next_restart + 1) & 7;
        } else if (*marker >= 0xD0 && *marker <= 0xD7) {
            return -1;
        }
        pos = *after;
    }
    return 0;
}

int vgn_dc_decode_scan(const uint8_t *in, size_t size, size_t pos, const vgn_dc_state *st, const vgn_dc_scan *scan,
                       uint8_t *scratch, vgn_dc_interval_decoder decode, void *context) {
    int marker;
    size_t after;
    if (vgn_dc_decode_scan_to_marker(in, size, pos, st, scan, scratch, decode, context, &marker, &after) != 0) return -1;
    return marker == 0xD9 ? 0 : -1;
}
