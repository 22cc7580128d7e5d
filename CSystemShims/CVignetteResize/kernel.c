// Lanczos-3 coefficients in 16-bit fixed point, one window per output sample.
#include "resize_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// Lanczos 3 at `x`, given sin(πx) and sin(πx / 3): 3 sin(πx) sin(πx / 3) / (πx)², 1 at 0 and 0
/// from ±3 on (the product is even in x, so the signs of both sines and of x go together).
static double vgn_lanczos3_from(double x, double sin_px, double sin_px3) {
    const double magnitude = x < 0 ? -x : x;
    if (magnitude < 1e-9) return 1.0;
    if (magnitude >= 3.0) return 0.0;
    const double px = M_PI * x;
    return 3.0 * sin_px * sin_px3 / (px * px);
}

/// The last kernels a thread made, by (in_size, out_size, multiple, scale): a thumbnail service makes the
/// same sizes again and again, and the weights (a sin() pair per tap) cost about 2 % of an
/// operation on sharp's task. Freed when the thread ends.
typedef struct {
    int in_size, out_size, multiple;
    double scale;
    vgn_kernel kernel;
} vgn_kernel_slot;

typedef struct {
    vgn_kernel_slot slots[8];
    int next;
} vgn_kernel_cache;

static pthread_key_t vgn_kernel_cache_key;
static pthread_once_t vgn_kernel_cache_once = PTHREAD_ONCE_INIT;
static int vgn_kernel_cache_ready;

static void vgn_kernel_cache_free(void *pointer) {
    vgn_kernel_cache *cache = pointer;
    for (int i = 0; i < 8; i++) vgn_kernel_free(&cache->slots[i].kernel);
    free(cache);
}

static void vgn_kernel_cache_init(void) {
    vgn_kernel_cache_ready = pthread_key_create(&vgn_kernel_cache_key, vgn_kernel_cache_free) == 0;
}

static vgn_kernel_cache *vgn_kernel_cache_get(void) {
    pthread_once(&vgn_kernel_cache_once, vgn_kernel_cache_init);
    if (!vgn_kernel_cache_ready) return NULL;
    vgn_kernel_cache *cache = pthread_getspecific(vgn_kernel_cache_key);
    if (!cache) {
        cache = calloc(1, sizeof(vgn_kernel_cache));
        if (cache && pthread_setspecific(vgn_kernel_cache_key, cache) != 0) {
            free(cache);
            cache = NULL;
        }
    }
    return cache;
}

/// `to` becomes a copy of `from` (its own memory). Returns 0 or -2.
static int vgn_kernel_copy(vgn_kernel *to, const vgn_kernel *from) {
    const size_t weights = (size_t)from->out_size * (size_t)from->taps;
    to->out_size = from->out_size;
    to->taps = from->taps;
    to->start = malloc(sizeof(int) * (size_t)from->out_size);
    to->weights = malloc(sizeof(int16_t) * weights);
    if (!to->start || !to->weights) {
        vgn_kernel_free(to);
        return -2;
    }
    memcpy(to->start, from->start, sizeof(int) * (size_t)from->out_size);
    memcpy(to->weights, from->weights, sizeof(int16_t) * weights);
    return 0;
}

static int vgn_kernel_compute(vgn_kernel *kernel, int in_size, int out_size, int multiple, double scale);

int vgn_kernel_make(vgn_kernel *kernel, int in_size, int out_size, int multiple, double scale) {
    if (!(scale > 0)) scale = (double)in_size / (double)out_size;
    vgn_kernel_cache *cache = vgn_kernel_cache_get();
    if (cache) {
        for (int i = 0; i < 8; i++) {
            const vgn_kernel_slot *slot = &cache->slots[i];
            if (slot->kernel.start && slot->in_size == in_size && slot->out_size == out_size && slot->multiple == multiple &&
                slot->scale == scale) {
                return vgn_kernel_copy(kernel, &slot->kernel);
            }
        }
    }
    const int status = vgn_kernel_compute(kernel, in_size, out_size, multiple, scale);
    if (status == 0 && cache) {
        vgn_kernel_slot *slot = &cache->slots[cache->next];
        cache->next = (cache->next + 1) % 8;
        vgn_kernel_free(&slot->kernel);
        if (vgn_kernel_copy(&slot->kernel, kernel) == 0) {
            slot->in_size = in_size;
            slot->out_size = out_size;
            slot->multiple = multiple;
            slot->scale = scale;
        }
    }
    return status;
}

static int vgn_kernel_compute(vgn_kernel *kernel, int in_size, int out_size, int multiple, double scale) {
    // Reducing stretches the kernel over `scale` input samples per lobe; enlarging does not.
    const double filter_scale = scale > 1.0 ? scale : 1.0;
    const double support = 3.0 * filter_scale;
    // As many taps as the widest window needs (at most 2 × ⌈support⌉ + 1), rounded up to `multiple`.
    int taps = 1;
    for (int i = 0; i < out_size; i++) {
        const double centre = (i + 0.5) * scale;
        const int width = (int)floor(centre + support + 0.5) - (int)floor(centre - support + 0.5);
        if (width > taps) taps = width;
    }
    if (multiple > 1) taps = (taps + multiple - 1) / multiple * multiple;
    if (taps > in_size) taps = in_size;

    kernel->out_size = out_size;
    kernel->taps = taps;
    kernel->start = malloc(sizeof(int) * (size_t)out_size);
    kernel->weights = calloc((size_t)out_size * (size_t)taps, sizeof(int16_t));
    double *exact = malloc(sizeof(double) * (size_t)taps);
    if (!kernel->start || !kernel->weights || !exact) {
        free(exact);
        vgn_kernel_free(kernel);
        return -2;
    }
    const int one = 1 << VGN_RESIZE_PRECISION;
    const double step_sin_a = sin(M_PI / filter_scale), step_cos_a = cos(M_PI / filter_scale);
    const double step_sin_b = sin(M_PI / filter_scale / 3.0), step_cos_b = cos(M_PI / filter_scale / 3.0);
    for (int i = 0; i < out_size; i++) {
        const double centre = (i + 0.5) * scale;
        const int first = (int)floor(centre - support + 0.5);
        const int end = (int)floor(centre + support + 0.5);
        // The window is `taps` long wherever the output is, inside the input.
        int start = first < 0 ? 0 : first;
        if (start + taps > in_size) start = in_size - taps;
        for (int t = 0; t < taps; t++) exact[t] = 0.0;
        double sum = 0;
        // The window's arguments step by 1 / filter_scale: sin(πu) and sin(πu / 3) are carried from
        // tap to tap by the angle-addition rotation, so a window costs four sin/cos calls, not two
        // a tap (the weights were 2 % of a thumbnail service's CPU when sizes vary).
        const double u0 = (first - centre + 0.5) / filter_scale;
        double sin_a = sin(M_PI * u0), cos_a = cos(M_PI * u0);
        double sin_b = sin(M_PI * u0 / 3.0), cos_b = cos(M_PI * u0 / 3.0);
        for (int x = first; x < end; x++) {
            // Past the edges the image goes on as copies of its edge pixels (as libvips extends it).
            int t = (x < 0 ? 0 : x >= in_size ? in_size - 1 : x) - start;
            if (t < 0) t = 0;
            if (t >= taps) t = taps - 1;
            const double u = (x - centre + 0.5) / filter_scale;
            const double w = vgn_lanczos3_from(u, sin_a, sin_b);
            exact[t] += w;
            sum += w;
            const double next_sin_a = sin_a * step_cos_a + cos_a * step_sin_a;
            cos_a = cos_a * step_cos_a - sin_a * step_sin_a;
            sin_a = next_sin_a;
            const double next_sin_b = sin_b * step_cos_b + cos_b * step_sin_b;
            cos_b = cos_b * step_cos_b - sin_b * step_sin_b;
            sin_b = next_sin_b;
        }
        int16_t *weights = kernel->weights + (size_t)i * (size_t)taps;
        if (!(sum > 1e-9)) {
            // Cannot happen for Lanczos 3 windows, but never divide by nothing: nearest sample.
            int nearest = (int)centre - start;
            weights[nearest < 0 ? 0 : nearest >= taps ? taps - 1 : nearest] = (int16_t)one;
        } else {
            int total = 0, largest = 0;
            for (int t = 0; t < taps; t++) {
                weights[t] = (int16_t)lround(exact[t] / sum * one);
                total += weights[t];
                if (weights[t] > weights[largest]) largest = t;
            }
            weights[largest] = (int16_t)(weights[largest] + one - total);
        }
        kernel->start[i] = start;
    }
    free(exact);
    return 0;
}

void vgn_kernel_free(vgn_kernel *kernel) {
    free(kernel->start);
    free(kernel->weights);
    kernel->start = NULL;
    kernel->weights = NULL;
}
