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

// The stream's display matrix (nine 32-bit integers), or NULL: from the codec parameters' coded
// side data from FFmpeg 6.1 (libavcodec 60.29) on, where av_stream_get_side_data is deprecated
// (FFmpeg 8 removes it); from the stream's side data before.
static inline const int32_t *vgn_av_display_matrix(const AVStream *stream) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
    const AVPacketSideData *side = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                           stream->codecpar->nb_coded_side_data,
                                                           AV_PKT_DATA_DISPLAYMATRIX);
    return side && side->size >= 9 * sizeof(int32_t) ? (const int32_t *)side->data : NULL;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    return data && size >= 9 * sizeof(int32_t) ? (const int32_t *)data : NULL;
#endif
}
