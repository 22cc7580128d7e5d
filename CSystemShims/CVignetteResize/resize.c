// vgn_lanczos3_resize: argument checks, alpha premultiplication, the two passes, dispatch.
#include "CVignetteResize.h"
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

/// One row of `width` pixels of `bands` bands (a constant where it is inlined, so the compiler
/// unrolls the bands): colour × alpha / 255, rounded. No branch for opaque pixels: for alpha 255
/// the formula gives the colour back exactly ((c × 255 + 127) / 255 = c).
static inline void vgn_resize_premultiply_row(const uint8_t *source, uint8_t *row, int width, const int bands) {
    for (int x = 0; x < width; x++, source += bands, row += bands) {
        const unsigned alpha = source[bands - 1];
        for (int b = 0; b < bands - 1; b++) row[b] = (uint8_t)((source[b] * alpha + 127) / 255);
        row[bands - 1] = (uint8_t)alpha;
    }
}

void vgn_resize_premultiply(const uint8_t *in, size_t in_stride, uint8_t *out, int width, int height, int bands,
                            int use_avx2) {
    for (int y = 0; y < height; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * (size_t)width * (size_t)bands;
#if defined(VGN_RESIZE_HAVE_AVX2)
        if (use_avx2 && bands == 4) {
            const int done = vgn_premultiply_rgba_avx2(source, row, width);
            vgn_resize_premultiply_row(source + (size_t)done * 4, row + (size_t)done * 4, width - done, 4);
            continue;
        }
#else
        (void)use_avx2;
#endif
        if (bands == 4) vgn_resize_premultiply_row(source, row, width, 4);
        else if (bands == 2) vgn_resize_premultiply_row(source, row, width, 2);
        else vgn_resize_premultiply_row(source, row, width, bands);
    }
}

/// Colour bands × 255 / alpha, rounded and clamped, in place; fully transparent pixels are black.
static void vgn_resize_unpremultiply(uint8_t *pixels, size_t stride, int width, int height, int bands) {
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

/// With alpha, the input rows the vertical pass reads, premultiplied into a window of rows that
/// slides down the image: a share premultiplies each of its rows once, in a buffer a few kernel
/// windows tall rather than a copy of the whole image (which cost a fresh mmap and its page
/// faults on every image).
typedef struct {
    uint8_t *rows;
    int first, count, capacity;
} vgn_premultiplied_window;

/// Rows [low, high) premultiplied in `window` (high - low <= capacity), refilled up to `last`
/// (the share's last input row + 1); returns the address of row `low`. Rows it holds already
/// move to the front instead of being premultiplied again.
static const uint8_t *vgn_window_cover(vgn_premultiplied_window *window, const vgn_resize_job *job, int low,
                                       int high, int last) {
    const size_t row_bytes = job->row_bytes;
    const int width = (int)(row_bytes / (size_t)job->bands);
    if (low >= window->first && high <= window->first + window->count) {
        return window->rows + (size_t)(low - window->first) * row_bytes;
    }
    if (low >= window->first && low < window->first + window->count) {
        const int kept = window->first + window->count - low;
        memmove(window->rows, window->rows + (size_t)(low - window->first) * row_bytes, (size_t)kept * row_bytes);
        window->count = kept;
    } else {
        window->count = 0;
    }
    window->first = low;
    const int end = low + window->capacity < last ? low + window->capacity : last;
    const int from = low + window->count;
    vgn_resize_premultiply(job->in + (size_t)from * job->in_stride, job->in_stride,
                           window->rows + (size_t)window->count * row_bytes, width, end - from, job->bands,
                           job->use_avx2);
    window->count = end - low;
    return window->rows;
}

int vgn_resize_rows(const vgn_resize_job *job, int first, int count) {
    const vgn_kernel *v = job->vertical, *h = job->horizontal;
    // Two output rows at a time: their vertical pass into a scratch pair of rows (hot in L1), then
    // their horizontal pass (the AVX2 one does two rows at once). 64 spare bytes: the AVX2
    // horizontal pass reads up to 16 bytes past a window's last pixel.
    uint8_t *middle = malloc(2 * job->row_bytes + 64);
    if (!middle) return -2;
    vgn_premultiplied_window window = {NULL, 0, 0, 0};
    int last = 0;
    if (job->has_alpha) {
        // Room for four pairs' windows, or the share's whole input when that is less.
        int span = 1, low = v->start[first];
        for (int y = first; y < first + count; y += 2) {
            const int next = y + 1 < first + count ? y + 1 : y;
            const int pair_low = v->start[y] < v->start[next] ? v->start[y] : v->start[next];
            const int pair_high = (v->start[y] > v->start[next] ? v->start[y] : v->start[next]) + v->taps;
            if (pair_high - pair_low > span) span = pair_high - pair_low;
            if (pair_low < low) low = pair_low;
            if (pair_high > last) last = pair_high;
        }
        window.capacity = 4 * span < last - low ? 4 * span : last - low;
        window.rows = malloc((size_t)window.capacity * job->row_bytes);
        if (!window.rows) {
            free(middle);
            return -2;
        }
    }
    for (int y = first; y < first + count; y += 2) {
        const int rows_now = first + count - y < 2 ? first + count - y : 2;
        // The vertical kernel's rows [y, y + rows_now) as a kernel of their own.
        vgn_kernel rows = {rows_now, v->taps, v->start + y, v->weights + (size_t)y * (size_t)v->taps};
        const uint8_t *in = job->in;
        size_t in_stride = job->in_stride;
        int starts[2];
        if (job->has_alpha) {
            int low = v->start[y], high = v->start[y] + v->taps;
            for (int r = 1; r < rows_now; r++) {
                if (v->start[y + r] < low) low = v->start[y + r];
                if (v->start[y + r] + v->taps > high) high = v->start[y + r] + v->taps;
            }
            in = vgn_window_cover(&window, job, low, high, last);
            in_stride = job->row_bytes;
            for (int r = 0; r < rows_now; r++) starts[r] = v->start[y + r] - low;
            rows.start = starts;
        }
        uint8_t *out = job->out + (size_t)y * job->out_stride;
#if defined(VGN_RESIZE_HAVE_AVX2)
        if (job->use_avx2) {
            vgn_vertical_avx2(in, in_stride, middle, job->row_bytes, job->row_bytes, &rows);
            if (job->horizontal_avx2) {
                vgn_horizontal_avx2(middle, job->row_bytes, out, job->out_stride, rows_now, job->bands, h,
                                    job->horizontal_avx2);
            } else {
                vgn_horizontal_scalar(middle, job->row_bytes, out, job->out_stride, rows_now, job->bands, h);
            }
        } else
#endif
        {
            vgn_vertical_scalar(in, in_stride, middle, job->row_bytes, job->row_bytes, &rows);
            vgn_horizontal_scalar(middle, job->row_bytes, out, job->out_stride, rows_now, job->bands, h);
        }
        if (job->has_alpha) vgn_resize_unpremultiply(out, job->out_stride, job->out_width, rows_now, job->bands);
    }
    free(window.rows);
    free(middle);
    return 0;
}

int vgn_resize_check(int in_width, int in_height, int out_width, int out_height, size_t out_stride,
                     int bands, int has_alpha, int implementation) {
    if (in_width < 1 || in_height < 1 || out_width < 1 || out_height < 1) return -1;
    if (bands < 1 || bands > 4 || (has_alpha && bands != 2 && bands != 4)) return -1;
    if (in_width > (1 << 24) || in_height > (1 << 24) || out_width > (1 << 24) || out_height > (1 << 24)) return -1;
    if (out_stride < (size_t)out_width * (size_t)bands) return -1;
    switch (implementation) {
    case VGN_RESIZE_AUTOMATIC: return vgn_resize_has_avx2();
    case VGN_RESIZE_SCALAR: return 0;
    case VGN_RESIZE_AVX2: return vgn_resize_has_avx2() ? 1 : -1;
    default: return -1;
    }
}

int vgn_resize_job_make(vgn_resize_job *job, vgn_kernel *vertical, vgn_kernel *horizontal,
                        int in_width, int in_height, int out_width, int out_height, double x_scale, double y_scale) {
    job->vertical = vertical;
    job->horizontal = horizontal;
    job->horizontal_avx2 = NULL;
    if (vgn_kernel_make(vertical, in_height, out_height, 2, y_scale) != 0) return -2;
    if (vgn_kernel_make(horizontal, in_width, out_width, 4, x_scale) != 0) return -2;
#if defined(VGN_RESIZE_HAVE_AVX2)
    if (job->use_avx2 && horizontal->taps % 4 == 0) {
        job->horizontal_avx2 = vgn_horizontal_avx2_prepare(horizontal, job->bands);
        if (!job->horizontal_avx2) return -2;
    }
#endif
    return 0;
}

void vgn_resize_job_free(vgn_resize_job *job, vgn_kernel *vertical, vgn_kernel *horizontal) {
    vgn_kernel_free(vertical);
    vgn_kernel_free(horizontal);
    free((void *)job->horizontal_avx2);
    job->horizontal_avx2 = NULL;
}

typedef struct {
    const vgn_resize_job *job;
    int first, count, status;
} vgn_resize_share;

static void *vgn_resize_share_run(void *argument) {
    vgn_resize_share *share = argument;
    share->status = vgn_resize_rows(share->job, share->first, share->count);
    return NULL;
}

int vgn_lanczos3_resize(const uint8_t *in, int in_width, int in_height, size_t in_stride,
                        uint8_t *out, int out_width, int out_height, size_t out_stride,
                        int bands, int has_alpha, int implementation, int threads) {
    return vgn_lanczos3_resize_scaled(in, in_width, in_height, in_stride, out, out_width, out_height, out_stride,
                                      0, 0, bands, has_alpha, implementation, threads);
}

int vgn_lanczos3_resize_scaled(const uint8_t *in, int in_width, int in_height, size_t in_stride,
                               uint8_t *out, int out_width, int out_height, size_t out_stride,
                               double x_scale, double y_scale,
                               int bands, int has_alpha, int implementation, int threads) {
    if (!in || !out) return -1;
    if (x_scale < 0 || y_scale < 0 || x_scale > 64 || y_scale > 64 || x_scale != x_scale || y_scale != y_scale) return -1;
    const int use_avx2 = vgn_resize_check(in_width, in_height, out_width, out_height, out_stride, bands, has_alpha,
                                          implementation);
    const size_t row_bytes = (size_t)in_width * (size_t)bands;
    if (use_avx2 < 0 || in_stride < row_bytes) return -1;

    int status = -2;
    vgn_kernel vertical = {0}, horizontal = {0};
    vgn_resize_job job = {in, in_stride, out, row_bytes, out_stride, out_width, bands, has_alpha, use_avx2,
                          NULL, NULL, NULL};
    if (vgn_resize_job_make(&job, &vertical, &horizontal, in_width, in_height, out_width, out_height, x_scale, y_scale) != 0) goto done;
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
            shares[t] = (vgn_resize_share){&job, first, next - first, 0};
        }
        for (int t = 1; t < threads; t++) started[t] = pthread_create(&workers[t], NULL, vgn_resize_share_run, &shares[t]) == 0;
        vgn_resize_share_run(&shares[0]);
        // A share whose thread could not start runs here.
        for (int t = 1; t < threads; t++) {
            if (started[t]) pthread_join(workers[t], NULL);
            else vgn_resize_share_run(&shares[t]);
        }
        for (int t = 0; t < threads; t++) if (shares[t].status != 0) goto done;
    }
    status = 0;

done:
    vgn_resize_job_free(&job, &vertical, &horizontal);
    return status;
}
