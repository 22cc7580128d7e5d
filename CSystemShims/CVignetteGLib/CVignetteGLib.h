// GLib (Debian's libglib2.0-dev, which libvips links already): GChecksum and GHmac give the
// SHA-256 and HMAC-SHA256 digests, so the core needs no second crypto library.
#include <glib.h>
