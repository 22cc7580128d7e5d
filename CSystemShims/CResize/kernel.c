// Lanczos-3 coefficients in 16-bit fixed point, one window per output sample.
#include "resize_internal.h"

#include <math.h>
#include <stdlib.h>

static double vgn_lanczos3(double x) {
    if (x < 0) x = -x;
    if (x < 1e-9) return 1.0;
    if (x >= 3.0) return 0.0;
    const double px = M_PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

int vgn_kernel_make(vgn_kernel *kernel, int in_size, int out_size, int multiple) {
    const double scale = (double)in_size / (double)out_size;
    // Reducing stretches the kernel over `scale` input samples per lobe; enlarging does not.
    const double filter_scale = scale > 1.0 ? scale : 1.0;
    const double support = 3.0 * filter_scale;
    int taps = (int)ceil(support) * 2 + 1;
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
    for (int i = 0; i < out_size; i++) {
        const double centre = (i + 0.5) * scale;
        const int first = (int)floor(centre - support + 0.5);
        const int end = (int)floor(centre + support + 0.5);
        // The window is `taps` long wherever the output is, inside the input.
        int start = first < 0 ? 0 : first;
        if (start + taps > in_size) start = in_size - taps;
        for (int t = 0; t < taps; t++) exact[t] = 0.0;
        double sum = 0;
        for (int x = first; x < end; x++) {
            // Past the edges the image goes on as copies of its edge pixels (as libvips extends it).
            int t = (x < 0 ? 0 : x >= in_size ? in_size - 1 : x) - start;
            if (t < 0) t = 0;
            if (t >= taps) t = taps - 1;
            const double w = vgn_lanczos3((x - centre + 0.5) / filter_scale);
            exact[t] += w;
            sum += w;
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
