// vgn_lanczos3_resize: argument checks, alpha premultiplication, the two passes, dispatch.
#include "CResize.h"
#include "resize_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int vgn_resize_has_avx2(void) {
#if defined(VGN_RESIZE_HAVE_AVX2)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

/// Colour bands × alpha / 255, rounded, into a packed copy.
static void vgn_premultiply(const uint8_t *in, size_t in_stride, uint8_t *out, int width, int height, int bands) {
    for (int y = 0; y < height; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * (size_t)width * (size_t)bands;
        for (int x = 0; x < width; x++, source += bands, row += bands) {
            const unsigned alpha = source[bands - 1];
            if (alpha == 255) {
                memcpy(row, source, (size_t)bands);
                continue;
            }
            for (int b = 0; b < bands - 1; b++) row[b] = (uint8_t)((source[b] * alpha + 127) / 255);
            row[bands - 1] = (uint8_t)alpha;
        }
    }
}

/// Colour bands × 255 / alpha, rounded and clamped, in place; fully transparent pixels are black.
static void vgn_unpremultiply(uint8_t *pixels, size_t stride, int width, int height, int bands) {
    for (int y = 0; y < height; y++) {
        uint8_t *row = pixels + (size_t)y * stride;
        for (int x = 0; x < width; x++, row += bands) {
            const unsigned alpha = row[bands - 1];
            if (alpha == 255) continue; // most pixels: opaque, nothing to divide
            for (int b = 0; b < bands - 1; b++) {
                const unsigned value = alpha == 0 ? 0 : (row[b] * 255u + alpha / 2) / alpha;
                row[b] = (uint8_t)(value > 255 ? 255 : value);
            }
        }
    }
}

/// One thread's share: output rows [first, first + count), both passes (output row i needs only
/// the vertical pass's row i), then unpremultiplied.
typedef struct {
    const uint8_t *in;
    size_t in_stride;
    uint8_t *middle, *out;
    size_t row_bytes, out_stride;
    int out_width, bands, has_alpha, use_avx2, first, count;
    const vgn_kernel *vertical, *horizontal;
    int status;
} vgn_resize_share;

static void *vgn_resize_rows(void *argument) {
    vgn_resize_share *share = argument;
    const vgn_kernel *v = share->vertical, *h = share->horizontal;
    // The vertical kernel's rows [first, first + count) as a kernel of their own.
    const vgn_kernel rows = {share->count, v->taps, v->start + share->first,
                             v->weights + (size_t)share->first * (size_t)v->taps};
    uint8_t *middle = share->middle + (size_t)share->first * share->row_bytes;
    uint8_t *out = share->out + (size_t)share->first * share->out_stride;
    share->status = 0;
#if defined(VGN_RESIZE_HAVE_AVX2)
    if (share->use_avx2) {
        vgn_vertical_avx2(share->in, share->in_stride, middle, share->row_bytes, share->row_bytes, &rows);
        if (h->taps % 4 == 0) {
            share->status = vgn_horizontal_avx2(middle, share->row_bytes, out, share->out_stride, share->count,
                                                share->bands, h);
        } else {
            vgn_horizontal_scalar(middle, share->row_bytes, out, share->out_stride, share->count, share->bands, h);
        }
    } else
#endif
    {
        vgn_vertical_scalar(share->in, share->in_stride, middle, share->row_bytes, share->row_bytes, &rows);
        vgn_horizontal_scalar(middle, share->row_bytes, out, share->out_stride, share->count, share->bands, h);
    }
    if (share->has_alpha && share->status == 0) vgn_unpremultiply(out, share->out_stride, share->out_width, share->count, share->bands);
    return NULL;
}

int vgn_lanczos3_resize(const uint8_t *in, int in_width, int in_height, size_t in_stride,
                        uint8_t *out, int out_width, int out_height, size_t out_stride,
                        int bands, int has_alpha, int implementation, int threads) {
    if (!in || !out || in_width < 1 || in_height < 1 || out_width < 1 || out_height < 1) return -1;
    if (bands < 1 || bands > 4 || (has_alpha && bands != 2 && bands != 4)) return -1;
    if (in_width > (1 << 24) || in_height > (1 << 24) || out_width > (1 << 24) || out_height > (1 << 24)) return -1;
    const size_t row_bytes = (size_t)in_width * (size_t)bands;
    if (in_stride < row_bytes || out_stride < (size_t)out_width * (size_t)bands) return -1;
    int use_avx2;
    switch (implementation) {
    case VGN_RESIZE_AUTOMATIC: use_avx2 = vgn_resize_has_avx2(); break;
    case VGN_RESIZE_SCALAR: use_avx2 = 0; break;
    case VGN_RESIZE_AVX2:
        if (!vgn_resize_has_avx2()) return -1;
        use_avx2 = 1;
        break;
    default: return -1;
    }

    int status = -2;
    uint8_t *premultiplied = NULL, *middle = NULL;
    vgn_kernel vertical = {0}, horizontal = {0};
    if (has_alpha) {
        premultiplied = malloc(row_bytes * (size_t)in_height);
        if (!premultiplied) goto done;
        vgn_premultiply(in, in_stride, premultiplied, in_width, in_height, bands);
        in = premultiplied;
        in_stride = row_bytes;
    }
    // Vertical first: the horizontal pass, the dearer one per sample, then runs on out_height rows.
    // 64 spare bytes: the AVX2 horizontal pass reads up to 16 bytes past a window's last pixel.
    middle = malloc(row_bytes * (size_t)out_height + 64);
    if (!middle) goto done;
    if (vgn_kernel_make(&vertical, in_height, out_height, 2) != 0) goto done;
    if (vgn_kernel_make(&horizontal, in_width, out_width, 4) != 0) goto done;
    {
        // Rows split evenly between up to 4 threads (this one and up to 3 more), none under 16 rows.
        if (threads < 1) threads = 1;
        if (threads > 4) threads = 4;
        if (threads > out_height / 16) threads = out_height / 16 > 0 ? out_height / 16 : 1;
        vgn_resize_share shares[4];
        pthread_t workers[4];
        int started[4] = {0};
        for (int t = 0; t < threads; t++) {
            const int first = (int)((long long)out_height * t / threads);
            const int next = (int)((long long)out_height * (t + 1) / threads);
            shares[t] = (vgn_resize_share){in, in_stride, middle, out, row_bytes, out_stride, out_width, bands,
                                           has_alpha, use_avx2, first, next - first, &vertical, &horizontal, 0};
        }
        for (int t = 1; t < threads; t++) started[t] = pthread_create(&workers[t], NULL, vgn_resize_rows, &shares[t]) == 0;
        vgn_resize_rows(&shares[0]);
        // A share whose thread could not start runs here.
        for (int t = 1; t < threads; t++) {
            if (started[t]) pthread_join(workers[t], NULL);
            else vgn_resize_rows(&shares[t]);
        }
        for (int t = 0; t < threads; t++) if (shares[t].status != 0) goto done;
    }
    status = 0;

done:
    vgn_kernel_free(&vertical);
    vgn_kernel_free(&horizontal);
    free(middle);
    free(premultiplied);
    return status;
}
