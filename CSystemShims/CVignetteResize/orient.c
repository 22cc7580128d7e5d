// EXIF orientations applied to one 8-bit plane: what `vips_autorot` does to an image, for the
// planar JPEG route's Y/Cb/Cr planes, which are turned upright before they are encoded.
#include "CVignetteResize.h"

#include <string.h>

void vgn_orient_plane(const uint8_t *in, int width, int height, size_t in_stride, uint8_t *out, size_t out_stride,
                      int orientation) {
    const ptrdiff_t row_step = (ptrdiff_t)out_stride;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = in + (size_t)y * in_stride;
        // Where (0, y) lands and the step (in output bytes) from x to x + 1.
        ptrdiff_t start, step;
        switch (orientation) {
        case 2: start = y * row_step + (width - 1); step = -1; break;
        case 3: start = (height - 1 - y) * row_step + (width - 1); step = -1; break;
        case 4: start = (height - 1 - y) * row_step; step = 1; break;
        case 5: start = y; step = row_step; break;
        case 6: start = height - 1 - y; step = row_step; break;
        case 7: start = (ptrdiff_t)(width - 1) * row_step + (height - 1 - y); step = -row_step; break;
        case 8: start = (ptrdiff_t)(width - 1) * row_step + y; step = -row_step; break;
        default: start = y * row_step; step = 1; break;
        }
        uint8_t *target = out + start;
        for (int x = 0; x < width; x++, target += step) *target = row[x];
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
