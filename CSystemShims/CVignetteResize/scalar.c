// The portable passes: the reference the AVX2 passes must equal.
#include "resize_internal.h"

#include <stdlib.h>
#include <string.h>

void vgn_vertical_scalar(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                         size_t row_bytes, const vgn_kernel *kernel) {
    const int taps = kernel->taps;
    for (int i = 0; i < kernel->out_size; i++) {
        const int16_t *weights = kernel->weights + (size_t)i * (size_t)taps;
        const uint8_t *window = in + (size_t)kernel->start[i] * in_stride;
        uint8_t *row = out + (size_t)i * out_stride;
        for (size_t j = 0; j < row_bytes; j++) {
            int32_t sum = 1 << (VGN_RESIZE_PRECISION - 1);
            for (int t = 0; t < taps; t++) sum += weights[t] * window[(size_t)t * in_stride + j];
            row[j] = vgn_clamp_sample(sum);
        }
    }
}

void vgn_horizontal_scalar(const uint8_t *in, size_t in_stride, uint8_t *out, size_t out_stride,
                           int rows, int bands, const vgn_kernel *kernel) {
    const int taps = kernel->taps;
    for (int y = 0; y < rows; y++) {
        const uint8_t *source = in + (size_t)y * in_stride;
        uint8_t *row = out + (size_t)y * out_stride;
        for (int i = 0; i < kernel->out_size; i++) {
            const int16_t *weights = kernel->weights + (size_t)i * (size_t)taps;
            const uint8_t *window = source + (size_t)kernel->start[i] * (size_t)bands;
            for (int b = 0; b < bands; b++) {
                int32_t sum = 1 << (VGN_RESIZE_PRECISION - 1);
                for (int t = 0; t < taps; t++) sum += weights[t] * window[t * bands + b];
                row[i * bands + b] = vgn_clamp_sample(sum);
            }
        }
    }
}
