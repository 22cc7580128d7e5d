// libdeflate (Debian's libdeflate-dev, which libtiff and so libvips already link): whole-buffer
// zlib compression and CRC-32 for the PNG writer (Sources/VignetteCodecs/Encoding/PNGWriter.swift).
// Every call reports failure through its return value; nothing longjmps.
#include <libdeflate.h>
