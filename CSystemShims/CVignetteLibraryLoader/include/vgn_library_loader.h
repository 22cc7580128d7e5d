// Libraries opened with dlopen when first needed, not at process start: the binary names none of
// them (no DT_NEEDED), and every function of theirs it calls is a trampoline that jumps to the
// function looked up in them (trampoline.h). A process that meets no HEIF maps no libheif (nor
// libde265, x265, aom, dav1d); one that meets no video maps no FFmpeg.
#ifndef VGN_LIBRARY_LOADER_H
#define VGN_LIBRARY_LOADER_H

#include <stddef.h>

/// Opens libheif (the soname of the headers' major version) and looks up every function Vignette
/// calls, once per process (later calls return the first outcome). 0 on success; -1 with a
/// message (NUL-terminated, at most `size` bytes) when the library or a function is missing. No
/// libheif function may be called before it succeeds.
int vgn_heif_load(char *message, size_t size);

/// Opens libavutil, libswscale, libavcodec and libavformat of the headers' major versions and
/// looks up every function Vignette calls, once per process, as `vgn_heif_load` does. Only in
/// builds with the Video trait.
int vgn_ffmpeg_load(char *message, size_t size);

#endif
