// FFmpeg's demuxers, decoders and scaler (libavformat, libavcodec, libswscale, libavutil), for
// video posters behind the package's Video trait. The inline functions give Swift the values of
// macros it cannot import (AVERROR(e), AVERROR_EOF, AV_NOPTS_VALUE, AVSEEK_SIZE).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

static inline int vgn_av_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int vgn_av_error_eof(void) { return AVERROR_EOF; }
static inline int vgn_av_error_exit(void) { return AVERROR_EXIT; }
static inline int vgn_av_error_eperm(void) { return AVERROR(EPERM); }
static inline int vgn_av_error_invaldata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t vgn_av_nopts(void) { return AV_NOPTS_VALUE; }
static inline int vgn_avseek_size(void) { return AVSEEK_SIZE; }
