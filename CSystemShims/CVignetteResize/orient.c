// EXIF orientations applied to one 8-bit plane: what `vips_autorot` does to an image, for the
// planar JPEG route's Y/Cb/Cr planes, which are turned upright before they are encoded.
#include "CVignetteResize.h"

#include <string.h>

/// Where input pixel (0, y) lands in `out`, and the step (in output bytes) from x to x + 1.
static inline void vgn_orient_row(int orientation, int y, int width, int height, ptrdiff_t row_step, ptrdiff_t *start,
                                  ptrdiff_t *step) {
    switch (orientation) {
    case 2: *start = y * row_step + (width - 1); *step = -1; break;
    case 3: *start = (height - 1 - y) * row_step + (width - 1); *step = -1; break;
    case 4: *start = (height - 1 - y) * row_step; *step = 1; break;
    case 5: *start = y; *step = row_step; break;
    case 6: *start = height - 1 - y; *step = row_step; break;
    case 7: *start = (ptrdiff_t)(width - 1) * row_step + (height - 1 - y); *step = -row_step; break;
    case 8: *start = (ptrdiff_t)(width - 1) * row_step + y; *step = -row_step; break;
    default: *start = y * row_step; *step = 1; break;
    }
}

void vgn_orient_plane(const uint8_t *in, int width, int height, size_t in_stride, uint8_t *out, size_t out_stride,
                      int orientation) {
    const ptrdiff_t row_step = (ptrdiff_t)out_stride;
    // The turns that transpose write each input row down an output column: in tiles of TILE × TILE
    // samples, so that the output rows a tile touches stay in the cache while it is written.
    enum { TILE = 32 };
    const int tile = orientation >= 5 && orientation <= 8 ? TILE : width;
    for (int y0 = 0; y0 < height; y0 += tile) {
        const int y_end = y0 + tile < height ? y0 + tile : height;
        for (int x0 = 0; x0 < width; x0 += tile) {
            const int x_end = x0 + tile < width ? x0 + tile : width;
            for (int y = y0; y < y_end; y++) {
                const uint8_t *row = in + (size_t)y * in_stride;
                ptrdiff_t start, step;
                vgn_orient_row(orientation, y, width, height, row_step, &start, &step);
                uint8_t *target = out + start + (ptrdiff_t)x0 * step;
                for (int x = x0; x < x_end; x++, target += step) *target = row[x];
            }
        }
    }
}

void vgn_pad_plane(uint8_t *plane, int width, int height, size_t stride, int padded_width, int padded_height) {
    for (int y = 0; y < height; y++) {
        uint8_t *row = plane + (size_t)y * stride;
        for (int x = width; x < padded_width; x++) row[x] = row[width - 1];
    }
    for (int y = height; y < padded_height; y++) {
        memcpy(plane + (size_t)y * stride, plane + (size_t)(height - 1) * stride, (size_t)padded_width);
    }
}

void vgn_shift_half_sample(uint8_t *plane, int width, int height, int along_rows) {
    if (along_rows) {
        for (int y = 0; y < height; y++) {
            uint8_t *row = plane + (size_t)y * (size_t)width;
            for (int x = 0; x + 1 < width; x++) row[x] = (uint8_t)((row[x] + row[x + 1] + 1) >> 1);
        }
    } else {
        for (int y = 0; y + 1 < height; y++) {
            uint8_t *row = plane + (size_t)y * (size_t)width;
            const uint8_t *below = row + width;
            for (int x = 0; x < width; x++) row[x] = (uint8_t)((row[x] + below[x] + 1) >> 1);
        }
    }
}
