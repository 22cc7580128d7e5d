// The FFmpeg functions Vignette calls, each with the library that defines it: every entry gets a
// trampoline of that name in ffmpeg.c and is looked up there when the libraries are opened. A
// call to an FFmpeg function missing here is an undefined reference at link time. The includer
// has FFmpeg's version headers: a stream's side data moved to its codec parameters in FFmpeg 6.1
// (libavcodec 60.29), where av_stream_get_side_data is deprecated (FFmpeg 8 removes it).
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 29, 100)
#define VGN_FFMPEG_SIDE_DATA(X) X(AVCODEC, av_packet_side_data_get)
#else
#define VGN_FFMPEG_SIDE_DATA(X) X(AVFORMAT, av_stream_get_side_data)
#endif
#define VGN_FFMPEG_FUNCTIONS(X) \
    X(AVUTIL, av_dict_free) \
    X(AVUTIL, av_dict_get) \
    X(AVUTIL, av_dict_set) \
    X(AVUTIL, av_display_rotation_get) \
    X(AVUTIL, av_frame_alloc) \
    X(AVUTIL, av_frame_free) \
    X(AVUTIL, av_free) \
    X(AVUTIL, av_freep) \
    X(AVUTIL, av_get_pix_fmt_name) \
    X(AVUTIL, av_image_get_buffer_size) \
    X(AVUTIL, av_log_set_level) \
    X(AVUTIL, av_malloc) \
    X(AVUTIL, av_max_alloc) \
    X(AVUTIL, av_pix_fmt_desc_get) \
    X(AVUTIL, av_strerror) \
    X(SWSCALE, sws_freeContext) \
    X(SWSCALE, sws_getCoefficients) \
    X(SWSCALE, sws_getContext) \
    X(SWSCALE, sws_scale) \
    X(SWSCALE, sws_setColorspaceDetails) \
    X(AVCODEC, av_packet_alloc) \
    X(AVCODEC, av_packet_free) \
    X(AVCODEC, av_packet_unref) \
    X(AVCODEC, avcodec_alloc_context3) \
    X(AVCODEC, avcodec_find_decoder) \
    X(AVCODEC, avcodec_flush_buffers) \
    X(AVCODEC, avcodec_free_context) \
    X(AVCODEC, avcodec_get_name) \
    X(AVCODEC, avcodec_open2) \
    X(AVCODEC, avcodec_parameters_to_context) \
    X(AVCODEC, avcodec_receive_frame) \
    X(AVCODEC, avcodec_send_packet) \
    X(AVFORMAT, av_find_best_stream) \
    X(AVFORMAT, av_find_input_format) \
    X(AVFORMAT, av_read_frame) \
    X(AVFORMAT, av_seek_frame) \
    X(AVFORMAT, avformat_alloc_context) \
    X(AVFORMAT, avformat_close_input) \
    X(AVFORMAT, avformat_find_stream_info) \
    X(AVFORMAT, avformat_open_input) \
    X(AVFORMAT, avio_alloc_context) \
    X(AVFORMAT, avio_context_free) \
    VGN_FFMPEG_SIDE_DATA(X)

