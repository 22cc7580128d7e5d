// Shared by the two DC paths: the marker walker, the header state and the Huffman table checks,
// each doing what libjpeg-turbo 2.1's jdmarker.c / jdinput.c / jdhuff.c do, but declining (-1)
// wherever libjpeg-turbo would stop with an error or a warning, and on anything these paths do
// not take.
#ifndef VGN_JPEG_DC_INTERNAL_H
#define VGN_JPEG_DC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/// JPEG_MAX_DIMENSION of libjpeg-turbo.
#define VGN_DC_MAX_DIMENSION 65500
/// D_MAX_BLOCKS_IN_MCU of libjpeg-turbo.
#define VGN_DC_MAX_BLOCKS_IN_MCU 10
/// More scans than this: declined (TurboJPEG refuses files of more than 500).
#define VGN_DC_MAX_SCANS 100

typedef struct {
    int id;
    int h, v;   // sampling factors, 1..4
    int tq;     // quantisation table, 0..3
} vgn_dc_component;

/// A DHT table as stored in the file.
typedef struct {
    int defined;
    uint8_t bits[17];    // bits[l]: how many codes of length l (1..16)
    uint8_t values[256]; // symbols; past `count` zero, as libjpeg leaves them
    int count;
} vgn_dc_huffman_spec;

/// What the markers before a scan have said, as libjpeg keeps it.
typedef struct {
    int sof;        // 0xC0, 0xC1, 0xC2; 0 before the frame header
    int width, height, ncomp;
    int hmax, vmax;
    vgn_dc_component comp[4];
    int quant_defined[4];
    uint16_t quant_dc[4];   // each table's first (DC) value
    uint16_t quant[4][64];  // each table in zigzag order, as the file stores it
    vgn_dc_huffman_spec dc[4], ac[4];
    int restart_interval;
    int saw_jfif, saw_adobe, adobe_transform;
    int scans;      // SOS markers read
} vgn_dc_state;

/// One SOS header.
typedef struct {
    int count;
    int comp[4];        // frame component indices, in scan order
    int td[4], ta[4];   // DC and AC table of each
    int ss, se, ah, al;
} vgn_dc_scan;

/// The marker at `*pos`: 0xFF, any 0xFF fill bytes, a code. Returns the code and moves `*pos`
/// past it, or -1 (declined) when there is no 0xFF there (libjpeg would warn of extraneous
/// data), the code is 0x00 or the input ends.
int vgn_dc_next_marker(const uint8_t *in, size_t size, size_t *pos);

/// Reads the segment of `marker` whose length field is at `*pos`, into `st` (and `scan` for SOS),
/// and moves `*pos` past it. Takes APPn, COM, DQT, DHT, DRI, SOF0/1/2 and SOS. Returns 0, or -1
/// (declined) for any other marker, a length that does not fit the input or the segment, and
/// anything libjpeg-turbo would refuse or warn about at that point.
int vgn_dc_read_segment(vgn_dc_state *st, int marker, const uint8_t *in, size_t size, size_t *pos, vgn_dc_scan *scan);

/// Whether `spec` makes a table libjpeg-turbo's jpeg_make_d_derived_tbl accepts: defined, a
/// complete-enough code (no code all ones, none overflowing its length) and, for DC, symbols 0..15.
int vgn_dc_huffman_valid(const vgn_dc_huffman_spec *spec, int is_dc);

/// Blocks of component `c` across and down (libjpeg's width_in_blocks, height_in_blocks).
int vgn_dc_blocks_wide(const vgn_dc_state *st, int c);
int vgn_dc_blocks_high(const vgn_dc_state *st, int c);

/// MCUs in `scan`: one block each for a single-component scan, else the interleaved MCU grid.
long vgn_dc_mcus_in_scan(const vgn_dc_state *st, const vgn_dc_scan *scan, int *per_row);

/// libjpeg's coef_bits: per component and coefficient, the last Al, -1 before any scan.
typedef struct {
    int bits[4][64];
} vgn_dc_progression;

/// The checks of start_pass_phuff_decoder for a progressive scan, and the progression's update:
/// 0, or -1 where libjpeg-turbo stops (ERREXIT) or warns (JWRN_BOGUS_PROGRESSION) alike.
int vgn_dc_check_progression(vgn_dc_progression *pr, const vgn_dc_scan *scan);

/// The Huffman tables a progressive scan uses exist and are valid, and each component's
/// quantisation table exists when its first scan latches it (`latched`: per component); 0 or -1.
int vgn_dc_check_scan_tables(const vgn_dc_state *st, const vgn_dc_scan *scan, int *latched);

#endif
