// FFmpeg's libraries opened when the first video arrives, not at process start: the binary names
// none of them (no DT_NEEDED), and every FFmpeg function it calls is a trampoline that jumps to the
// function looked up in them (loader.c). A process that meets no video never maps FFmpeg.
#ifndef VGN_FFMPEG_LOADER_H
#define VGN_FFMPEG_LOADER_H

#include <stddef.h>

/// Opens libavutil, libswscale, libavcodec and libavformat of the headers' major versions and
/// looks up every function Vignette calls, once per process (later calls return the first
/// outcome). 0 on success; -1 with a message (NUL-terminated, at most `size` bytes) when a
/// library or a function is missing. No FFmpeg function may be called before it succeeds.
int vgn_ffmpeg_load(char *message, size_t size);

#endif
