// The Lanczos-3 reducer (CVignetteResize) on this CPU: the path vgn_lanczos3_resize chooses
// (VGN_RESIZE_AUTOMATIC: AVX2 on x86-64 CPUs that have it, else the scalar code) against the
// portable scalar twin (VGN_RESIZE_SCALAR), byte for byte, on random sizes, 1-4 bands, with and
// without alpha, 1-4 threads, and through vgn_lanczos3_resize_scaled with random mappings; plus
// the properties that hold on every CPU: a flat image stays exactly flat, the thread count changes
// no pixel, every output kernel's weights add up to 1 (kernel.c). The digest printed at the end is
// of the scalar outputs, for comparing CPUs: the weights come from sin() of this CPU's libm.
#include "check.h"
#include "CVignetteResize.h"
#include "resize_internal.h"

#include <inttypes.h>

/// FNV-1a over `count` bytes, continued from `hash`.
static uint64_t digest(uint64_t hash, const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) hash = (hash ^ bytes[i]) * 0x100000001B3u;
    return hash;
}

int main(void) {
    uint64_t rng = 20261128, hash = 0xCBF29CE484222325u;
    int cases = 0, equal = 0, differing = 0, refused = 0, flat_cases = 0, not_flat = 0, thread_cases = 0, thread_differing = 0;
    int kernels = 0, kernels_off = 0;
    for (int round = 0; round < 400; round++) {
        int bands = 1 + round % 4, has_alpha = (bands == 2 || bands == 4) && round / 4 % 2;
        int in_width = vgn_check_between(&rng, 1, 300), in_height = vgn_check_between(&rng, 1, 300);
        int out_width = vgn_check_between(&rng, 1, in_width), out_height = vgn_check_between(&rng, 1, in_height);
        int threads = vgn_check_between(&rng, 1, 4), scaled = round % 3 == 2;
        // A mapping of its own for every third case: up to twice the sizes' ratio, as the planar
        // route's chroma planes get the luma's.
        double x_scale = scaled ? (double)in_width / out_width * (0.5 + vgn_check_between(&rng, 0, 100) / 100.0) : 0;
        double y_scale = scaled ? (double)in_height / out_height * (0.5 + vgn_check_between(&rng, 0, 100) / 100.0) : 0;
        if (x_scale > 64) x_scale = 64;
        if (y_scale > 64) y_scale = 64;
        size_t in_stride = (size_t)in_width * (size_t)bands + (size_t)vgn_check_between(&rng, 0, 7);
        size_t out_stride = (size_t)out_width * (size_t)bands;
        uint8_t *in = malloc(in_stride * (size_t)in_height);
        uint8_t *a = malloc(out_stride * (size_t)out_height), *b = malloc(out_stride * (size_t)out_height);
        if (in == NULL || a == NULL || b == NULL) return 1;
        // Noise, with runs of transparent and of opaque pixels where there is alpha.
        for (size_t i = 0; i < in_stride * (size_t)in_height; i++) in[i] = (uint8_t)vgn_check_random(&rng);
        int status_a = vgn_lanczos3_resize_scaled(in, in_width, in_height, in_stride, a, out_width, out_height, out_stride, x_scale, y_scale,
                                                  bands, has_alpha, VGN_RESIZE_SCALAR, 1);
        int status_b = vgn_lanczos3_resize_scaled(in, in_width, in_height, in_stride, b, out_width, out_height, out_stride, x_scale, y_scale,
                                                  bands, has_alpha, VGN_RESIZE_AUTOMATIC, threads);
        cases++;
        if (status_a != 0 || status_b != 0) {
            refused++;
            printf("  REFUSED: %dx%dx%d -> %dx%d (scales %g, %g): %d, %d\n", in_width, in_height, bands, out_width, out_height, x_scale,
                   y_scale, status_a, status_b);
        } else if (memcmp(a, b, out_stride * (size_t)out_height) == 0) {
            equal++;
            hash = digest(hash, a, out_stride * (size_t)out_height);
        } else {
            differing++;
            size_t at = 0;
            while (a[at] == b[at]) at++;
            printf("  DIFFERS: %dx%dx%d%s -> %dx%d (scales %g, %g), %d threads: byte %zu is %d, scalar %d\n", in_width, in_height, bands,
                   has_alpha ? " with alpha" : "", out_width, out_height, x_scale, y_scale, threads, at, b[at], a[at]);
        }
        // The scalar path split between threads: the same bytes.
        if (round % 8 == 0 && status_a == 0) {
            thread_cases++;
            if (vgn_lanczos3_resize_scaled(in, in_width, in_height, in_stride, b, out_width, out_height, out_stride, x_scale, y_scale, bands,
                                           has_alpha, VGN_RESIZE_SCALAR, 4) != 0
                || memcmp(a, b, out_stride * (size_t)out_height) != 0) {
                thread_differing++;
                printf("  DIFFERS: %dx%dx%d -> %dx%d: the scalar path on 4 threads\n", in_width, in_height, bands, out_width, out_height);
            }
        }
        // A flat image stays exactly flat on the chosen path.
        if (round % 4 == 0) {
            uint8_t value = (uint8_t)vgn_check_random(&rng);
            memset(in, value, in_stride * (size_t)in_height);
            flat_cases++;
            if (vgn_lanczos3_resize_scaled(in, in_width, in_height, in_stride, b, out_width, out_height, out_stride, x_scale, y_scale, bands, 0,
                                           VGN_RESIZE_AUTOMATIC, threads) != 0) {
                not_flat++;
            } else {
                for (size_t i = 0; i < out_stride * (size_t)out_height; i++)
                    if (b[i] != value) {
                        not_flat++;
                        printf("  NOT FLAT: %dx%dx%d of %d -> %dx%d: byte %zu is %d\n", in_width, in_height, bands, value, out_width,
                               out_height, i, b[i]);
                        break;
                    }
            }
        }
        free(in);
        free(a);
        free(b);
        // kernel.c: every output's weights add up to exactly 1, and its window lies inside the input.
        vgn_kernel kernel;
        if (vgn_kernel_make(&kernel, in_width, out_width, 1 + round % 2 * 3, x_scale) == 0) {
            kernels++;
            for (int i = 0; i < kernel.out_size; i++) {
                int sum = 0;
                for (int t = 0; t < kernel.taps; t++) sum += kernel.weights[(size_t)i * (size_t)kernel.taps + (size_t)t];
                if (sum != 1 << VGN_RESIZE_PRECISION || kernel.start[i] < 0 || kernel.start[i] + kernel.taps > in_width) {
                    kernels_off++;
                    printf("  KERNEL: %d -> %d, output %d: weights add up to %d, window %d + %d\n", in_width, out_width, i, sum,
                           kernel.start[i], kernel.taps);
                    break;
                }
            }
            vgn_kernel_free(&kernel);
        }
    }
    // Arguments it must refuse, not crash on.
    uint8_t pixel[4] = {0};
    int refusals = vgn_lanczos3_resize(NULL, 1, 1, 4, pixel, 1, 1, 4, 4, 0, VGN_RESIZE_AUTOMATIC, 1) == -1
                && vgn_lanczos3_resize(pixel, 1, 1, 4, pixel, 1, 1, 4, 5, 0, VGN_RESIZE_AUTOMATIC, 1) == -1
                && vgn_lanczos3_resize(pixel, 0, 1, 4, pixel, 1, 1, 4, 4, 0, VGN_RESIZE_AUTOMATIC, 1) == -1
                && vgn_lanczos3_resize_scaled(pixel, 1, 1, 4, pixel, 1, 1, 4, 65, 0, 4, 0, VGN_RESIZE_AUTOMATIC, 1) == -1;
    printf("resize_kernels (chosen path: %s): vgn_lanczos3_resize against its scalar twin\n",
           vgn_resize_has_avx2() ? "AVX2" : "scalar, the twin itself");
    printf("  %d random resizes: %d byte-equal, %d differing, %d refused\n", cases, equal, differing, refused);
    printf("  %d on 4 threads against 1: %d differing; %d flat images: %d not flat; %d kernels: %d whose weights do not add up\n",
           thread_cases, thread_differing, flat_cases, not_flat, kernels, kernels_off);
    printf("  bad arguments refused: %s\n", refusals ? "yes" : "NO");
    printf("  digest of the scalar outputs: %016" PRIx64 "\n", hash);
    return differing == 0 && refused == 0 && thread_differing == 0 && not_flat == 0 && kernels_off == 0 && refusals ? 0 : 1;
}
