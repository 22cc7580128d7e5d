// libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg0-dev): JPEG to and from Y/Cb/Cr planes,
// with DCT scaling, for Vignette's planar JPEG route (Sources/VignetteCodecs/JPEG). TurboJPEG
// catches libjpeg's errors itself (setjmp inside the library) and returns -1 with a message per
// handle, so no longjmp ever crosses Swift frames.
#include <turbojpeg.h>
