// Matrix-shaper conversion of 8-bit RGB to sRGB from tables: see vgn_matrix_shaper_make in
// CVignetteResize.h. Linear light is kept in fixed point with LINEAR_ONE for 1.0; the sRGB curve is
// a table over every such value, filled from the 255 boundaries between output levels.
#include "CVignetteResize.h"

#include <math.h>
#include <stdlib.h>

enum { LINEAR_BITS = 14, LINEAR_ONE = 1 << LINEAR_BITS };

struct vgn_matrix_shaper {
    /// terms[out][in][v]: input channel `in` at value v, its share of output channel `out`'s
    /// linear light (matrix entry × the input curve), LINEAR_ONE for 1.0.
    int32_t terms[3][3][256];
    /// The sRGB-encoded 8-bit level of each linear value 0…LINEAR_ONE.
    uint8_t encode[LINEAR_ONE + 1];
};

/// sRGB's curve from encoded (0–1) to linear light, as IEC 61966-2-1 gives it.
static double srgb_to_linear(double encoded) {
    return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4);
}

vgn_matrix_shaper *vgn_matrix_shaper_make(const double *matrix, const double *curves) {
    for (int i = 0; i < 9; i++)
        if (!isfinite(matrix[i]) || fabs(matrix[i]) > 64) return NULL;
    for (int i = 0; i < 3 * 256; i++)
        if (!isfinite(curves[i])) return NULL;
    vgn_matrix_shaper *shaper = malloc(sizeof *shaper);
    if (!shaper) return NULL;
    for (int out = 0; out < 3; out++)
        for (int in = 0; in < 3; in++)
            for (int v = 0; v < 256; v++) {
                const double value = curves[in * 256 + v], linear = value < 0 ? 0 : value > 1 ? 1 : value;
                shaper->terms[out][in][v] = (int32_t)lround(matrix[out * 3 + in] * linear * LINEAR_ONE);
            }
    // Level v covers the linear values from the boundary below it (where v - 0.5 encodes) to the
    // one above: the table is the count of boundaries at or below each value, so each entry is
    // the level whose encoded value is nearest.
    int level = 0;
    double boundary = srgb_to_linear(0.5 / 255) * LINEAR_ONE;
    for (int i = 0; i <= LINEAR_ONE; i++) {
        while (level < 255 && i >= boundary) {
            level++;
            boundary = level < 255 ? srgb_to_linear((level + 0.5) / 255) * LINEAR_ONE : INFINITY;
        }
        shaper->encode[i] = (uint8_t)level;
    }
    return shaper;
}

static inline uint8_t encoded(const vgn_matrix_shaper *shaper, int32_t linear) {
    return shaper->encode[linear < 0 ? 0 : linear > LINEAR_ONE ? LINEAR_ONE : linear];
}

void vgn_matrix_shaper_apply(const vgn_matrix_shaper *shaper, const uint8_t *in, uint8_t *out, size_t count, int bands) {
    const size_t step = bands == 4 ? 4 : 3;
    for (size_t i = 0; i < count; i++, in += step, out += step) {
        const uint8_t r = in[0], g = in[1], b = in[2];
        const uint8_t alpha = step == 4 ? in[3] : 0;
        out[0] = encoded(shaper, shaper->terms[0][0][r] + shaper->terms[0][1][g] + shaper->terms[0][2][b]);
        out[1] = encoded(shaper, shaper->terms[1][0][r] + shaper->terms[1][1][g] + shaper->terms[1][2][b]);
        out[2] = encoded(shaper, shaper->terms[2][0][r] + shaper->terms[2][1][g] + shaper->terms[2][2][b]);
        if (step == 4) out[3] = alpha;
    }
}

void vgn_matrix_shaper_free(vgn_matrix_shaper *shaper) { free(shaper); }
