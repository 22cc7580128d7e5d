// CVignetteJPEGDC: JPEG thumbnails at 1/8 scale from each block's DC coefficient only, and at
// 1/4 and 1/2 from the coefficients libjpeg-turbo's reduced IDCTs read (vgn_jpeg_scaled_decode,
// and vgn_jpeg_scaled_progressive_decode for progressive files).
//
// Why it exists: at 1/8 scale libjpeg-turbo's 1x1 IDCT reads only the DC coefficient of each
// 8x8 block, yet libjpeg-turbo entropy-decodes (and, for progressive files, buffers) every AC
// coefficient. Two paths skip that work and must give exactly libjpeg-turbo's 1/8 planes
// (tjDecompressToYUVPlanes):
//   - progressive Huffman files: a copy of the stream with only the DC scans (Ss = 0), which
//     libjpeg-turbo then decodes (vgn_jpeg_dc_progressive_stream);
//   - baseline / extended Huffman files: a DC-only entropy decoder that skips the AC symbols
//     without storing them (vgn_jpeg_dc_decode).
// Both decline (return VGN_JPEG_DC_DECLINED) on anything unusual or damaged, so that the caller
// hands the file to libjpeg-turbo and every broken file gets libjpeg-turbo's own verdict.
// Nothing here allocates from a header's numbers alone: buffers are sized by the input's length
// or given by the caller. All symbols are prefixed `vgn_`.
#ifndef VGN_JPEG_DC_H
#define VGN_JPEG_DC_H

#include <stddef.h>
#include <stdint.h>

/// Results of `vgn_jpeg_dc_decode`.
enum {
    /// The planes were written.
    VGN_JPEG_DC_OK = 0,
    /// The file is not one these paths take, or is damaged: decode it with libjpeg-turbo.
    VGN_JPEG_DC_DECLINED = 1,
    /// A scratch buffer could not be allocated.
    VGN_JPEG_DC_NO_MEMORY = 2,
};

/// What `vgn_jpeg_dc_kind` finds.
enum {
    /// Neither path applies (or the header is damaged).
    VGN_JPEG_DC_KIND_NONE = 0,
    /// SOF0 or SOF1, 8-bit, Huffman, 1 or 3 components: `vgn_jpeg_dc_decode`.
    VGN_JPEG_DC_KIND_SEQUENTIAL = 1,
    /// SOF2, 8-bit, Huffman, 1 or 3 components: `vgn_jpeg_dc_progressive_stream`.
    VGN_JPEG_DC_KIND_PROGRESSIVE = 2,
};

/// Which path applies to `jpeg` (`size` bytes), from the markers up to its frame header.
int vgn_jpeg_dc_kind(const uint8_t *jpeg, size_t size);

/// Writes to `out` (`capacity` bytes, at least `size`) the markers and tables of the progressive
/// JPEG `jpeg` and only its DC scans (Ss = 0), then EOI; returns the bytes written, or 0 when
/// declined: not a progressive Huffman 8-bit file, a truncated or unknown segment, a scan
/// libjpeg-turbo would refuse or warn about, no EOI. Decoded by libjpeg-turbo at 1/8 it gives the
/// planes of the whole file at 1/8 (block smoothing is kept off, as for the complete file).
/// The AC scans' entropy-coded data are skipped unread: damage inside them, which libjpeg-turbo
/// decodes with a warning, is not seen here.
size_t vgn_jpeg_dc_progressive_stream(const uint8_t *jpeg, size_t size, uint8_t *out, size_t capacity);

/// Decodes the sequential (SOF0/SOF1) JPEG `jpeg` at 1/8 into `planes` (1 for greyscale, else 3:
/// Y, Cb, Cr), plane i being `widths[i]` x `heights[i]` samples, rows `strides[i]` bytes apart,
/// as tjDecompressToYUVPlanes lays them out (tjPlaneWidth/tjPlaneHeight at 1/8). Each sample is
/// its block's DC dequantised, descaled, level-shifted and range-limited as libjpeg-turbo's
/// jpeg_idct_1x1 computes it; samples past the last block repeat the edge. Returns VGN_JPEG_DC_OK,
/// VGN_JPEG_DC_DECLINED (nothing promised about the planes' content) or VGN_JPEG_DC_NO_MEMORY.
int vgn_jpeg_dc_decode(
    const uint8_t *jpeg, size_t size, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]);

/// Decodes the sequential (SOF0/SOF1) JPEG `jpeg` at 1/4 (`scale` 2: 2x2 samples a block) or 1/2
/// (`scale` 4) into `planes`, laid out as for vgn_jpeg_dc_decode (tjPlaneWidth/tjPlaneHeight at
/// that scale): every AC coefficient decoded, only those libjpeg-turbo's reduced IDCT reads kept,
/// and that IDCT run as libjpeg-turbo 2.1 runs it on x86-64 (jsimd_idct_2x2 / jsimd_idct_4x4,
/// SSE2) and on arm64 (their Neon versions); on other CPUs it declines every file. Samples past
/// the last block repeat the edge. Declines (VGN_JPEG_DC_DECLINED) what
/// vgn_jpeg_dc_decode declines, and sampling factors for which libjpeg-turbo would decode a
/// component through a larger IDCT than the luma's (all but 4:2:0 as TurboJPEG names it).
int vgn_jpeg_scaled_decode(
    const uint8_t *jpeg, size_t size, int scale, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]);

/// Decodes the progressive (SOF2) JPEG `jpeg` at 1/4 (`scale` 2) or 1/2 (`scale` 4) into `planes`
/// as vgn_jpeg_scaled_decode does for sequential files: every scan decoded as libjpeg-turbo's
/// jdphuff.c decodes it, only the coefficients the reduced IDCT reads kept (with a bit a
/// coefficient saying which are nonzero, which the refinement scans need), then that IDCT.
/// Declines what libjpeg-turbo would warn about or refuse, the sampling factors
/// vgn_jpeg_scaled_decode declines, and files libjpeg-turbo would decode with block smoothing
/// (some of coefficients 0..9 of a component not fully refined). Allocates a coefficient store of
/// at most 8 x `size` blocks, and declines a frame with more blocks than that (it could not hold
/// their DC scans).
int vgn_jpeg_scaled_progressive_decode(
    const uint8_t *jpeg, size_t size, int scale, int plane_count, uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3]);

/// 1 when vgn_jpeg_scaled_decode runs its vectorised paths on this CPU (x86-64 with AVX2 and BMI2:
/// the IDCT two blocks a call, the Huffman loop compiled for BMI2's shifts), which make it faster
/// than libjpeg-turbo's 1/4 and 1/2 decodes; 0 when it runs its scalar code (still libjpeg-turbo's
/// planes, but slower than libjpeg-turbo at 1/2).
int vgn_jpeg_scaled_vectorised(void);

/// Whether the AVX2 reduced IDCT that vgn_jpeg_scaled_decode runs on this CPU gives the scalar
/// twin's samples for blocks `a` and `b` (coefficients and quantisers in natural order) at
/// `scale` (2: 2x2, 4: 4x4 samples a block): 1, 0 when they differ, -1 when this CPU has no AVX2
/// (the scalar twin is then the only IDCT) or `scale` is neither. For tests and fuzzing.
int vgn_jpeg_scaled_idct_agrees(const int16_t a[64], const int16_t b[64], const uint16_t qa[64], const uint16_t qb[64], int scale);

#endif
