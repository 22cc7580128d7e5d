// The lazy loaders and their trampolines (CVignetteLibraryLoader: heif.c, ffmpeg.c with VGN_VIDEO,
// lazy.c, the stubs of trampoline.h) calling into the real libheif and FFmpeg of this machine (or
// of the arm64 root filesystem under qemu-user): this program names neither library (no
// DT_NEEDED), so every call below goes through a stub that jumps through the pointer the loader
// filled with dlsym.
//   - libheif: vgn_heif_load, heif_get_version, then a HEIF file read from memory: its primary
//     image's size and its thumbnail's size against the expected ones, and the primary image
//     decoded to RGB at that size;
//   - FFmpeg: vgn_ffmpeg_load, then a clip opened from memory through an AVIOContext as
//     VideoSource opens it (avformat_open_input), its video stream's size against the expected
//     one, and its first frame decoded at that size;
//   - a library that is not there: vgn_lazy_open's message, not a crash.
//
//   trampolines HEIF WIDTH HEIGHT THUMB_WIDTH THUMB_HEIGHT [CLIP WIDTH HEIGHT]
// Without CLIP (the host had no ffmpeg to make one) the FFmpeg part says it is skipped; the exit
// status is then 77 if everything else passed.
#include "check.h"
#include "vgn_library_loader.h"
#include "trampoline.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libheif/heif.h>

static int failures = 0;

#define EXPECT(condition, ...)                 \
    do {                                       \
        if (!(condition)) {                    \
            printf("  FAILED: " __VA_ARGS__);  \
            printf("\n");                      \
            failures++;                        \
        }                                      \
    } while (0)

static void check_heif(const char *path, int width, int height, int thumb_width, int thumb_height) {
    char message[512] = "";
    if (vgn_heif_load(message, sizeof message) != 0) {
        EXPECT(0, "vgn_heif_load: %s", message);
        return;
    }
    printf("  libheif %s loaded through the trampolines\n", heif_get_version());
    size_t size;
    uint8_t *data = vgn_check_read(path, &size);
    if (data == NULL) {
        EXPECT(0, "cannot read %s", path);
        return;
    }
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL, *thumbnail = NULL;
    struct heif_image *image = NULL;
    struct heif_error error = heif_context_read_from_memory_without_copy(context, data, size, NULL);
    EXPECT(error.code == heif_error_Ok, "heif_context_read_from_memory_without_copy: %s", error.message);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(context, &handle);
    if (handle != NULL) {
        int w = heif_image_handle_get_width(handle), h = heif_image_handle_get_height(handle);
        EXPECT(w == width && h == height, "%s: primary image %dx%d, expected %dx%d", vgn_check_base(path), w, h, width, height);
        heif_item_id ids[4];
        int thumbnails = heif_image_handle_get_number_of_thumbnails(handle);
        if (thumbnails > 0 && heif_image_handle_get_list_of_thumbnail_IDs(handle, ids, 4) > 0)
            heif_image_handle_get_thumbnail(handle, ids[0], &thumbnail);
        int tw = thumbnail ? heif_image_handle_get_width(thumbnail) : 0, th = thumbnail ? heif_image_handle_get_height(thumbnail) : 0;
        EXPECT(tw == thumb_width && th == thumb_height, "%s: thumbnail %dx%d, expected %dx%d", vgn_check_base(path), tw, th, thumb_width,
               thumb_height);
        error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL);
        EXPECT(error.code == heif_error_Ok, "heif_decode_image: %s", error.message);
        int dw = image ? heif_image_get_width(image, heif_channel_interleaved) : 0;
        int dh = image ? heif_image_get_height(image, heif_channel_interleaved) : 0;
        int stride = 0;
        const uint8_t *plane = image ? heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) : NULL;
        EXPECT(plane != NULL && dw == width && dh == height, "decoded %dx%d, expected %dx%d", dw, dh, width, height);
        if (plane != NULL) {
            // The picture is not one colour: the decoder produced pixels, not a fill.
            int lowest = 255, highest = 0;
            for (int y = 0; y < dh; y += 7)
                for (int x = 0; x < dw * 3; x += 5) {
                    int v = plane[(size_t)y * (size_t)stride + (size_t)x];
                    lowest = v < lowest ? v : lowest, highest = v > highest ? v : highest;
                }
            EXPECT(highest - lowest > 32, "the decoded picture is flat (%d..%d)", lowest, highest);
            printf("  %s: %dx%d (thumbnail %dx%d) read and decoded, samples %d..%d\n", vgn_check_base(path), w, h, tw, th, lowest, highest);
        }
    }
    if (image) heif_image_release(image);
    if (thumbnail) heif_image_handle_release(thumbnail);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    free(data);
}

typedef struct {
    const uint8_t *data;
    size_t size, at;
} memory_source;

static int read_packet(void *opaque, uint8_t *buffer, int capacity) {
    memory_source *source = opaque;
    size_t left = source->size - source->at, count = left < (size_t)capacity ? left : (size_t)capacity;
    if (count == 0) return AVERROR_EOF;
    memcpy(buffer, source->data + source->at, count);
    source->at += count;
    return (int)count;
}

static int64_t seek(void *opaque, int64_t offset, int whence) {
    memory_source *source = opaque;
    if (whence == AVSEEK_SIZE) return (int64_t)source->size;
    int64_t base = (whence & 3) == SEEK_CUR ? (int64_t)source->at : (whence & 3) == SEEK_END ? (int64_t)source->size : 0;
    if (base + offset < 0 || base + offset > (int64_t)source->size) return -1;
    source->at = (size_t)(base + offset);
    return base + offset;
}

static void check_ffmpeg(const char *path, int width, int height) {
    char message[512] = "";
    if (vgn_ffmpeg_load(message, sizeof message) != 0) {
        EXPECT(0, "vgn_ffmpeg_load: %s", message);
        return;
    }
    av_log_set_level(AV_LOG_QUIET);
    printf("  FFmpeg (libavformat %d.%d, libavcodec %d.%d) loaded through the trampolines\n", LIBAVFORMAT_VERSION_MAJOR,
           LIBAVFORMAT_VERSION_MINOR, LIBAVCODEC_VERSION_MAJOR, LIBAVCODEC_VERSION_MINOR);
    size_t size;
    uint8_t *data = vgn_check_read(path, &size);
    if (data == NULL) {
        EXPECT(0, "cannot read %s", path);
        return;
    }
    memory_source source = {data, size, 0};
    enum { BUFFER = 4096 };
    uint8_t *buffer = av_malloc(BUFFER);
    AVIOContext *io = buffer ? avio_alloc_context(buffer, BUFFER, 0, &source, read_packet, NULL, seek) : NULL;
    AVFormatContext *format = avformat_alloc_context();
    AVCodecContext *codec = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    if (io == NULL || format == NULL || packet == NULL || frame == NULL) {
        EXPECT(0, "FFmpeg allocations failed");
        goto done;
    }
    format->pb = io;
    int status = avformat_open_input(&format, NULL, NULL, NULL);
    EXPECT(status == 0, "avformat_open_input: %d", status);
    if (status != 0) goto done;   // avformat_open_input freed the context
    status = avformat_find_stream_info(format, NULL);
    EXPECT(status >= 0, "avformat_find_stream_info: %d", status);
    const AVCodec *decoder = NULL;
    int stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    EXPECT(stream >= 0 && decoder != NULL, "no video stream with a decoder");
    if (stream < 0 || decoder == NULL) goto close;
    AVCodecParameters *parameters = format->streams[stream]->codecpar;
    EXPECT(parameters->width == width && parameters->height == height, "%s: stream %dx%d, expected %dx%d", vgn_check_base(path),
           parameters->width, parameters->height, width, height);
    codec = avcodec_alloc_context3(decoder);
    if (codec == NULL || avcodec_parameters_to_context(codec, parameters) < 0 || avcodec_open2(codec, decoder, NULL) < 0) {
        EXPECT(0, "%s decoder did not open", avcodec_get_name(parameters->codec_id));
        goto close;
    }
    int decoded = 0;
    while (!decoded && av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == stream && avcodec_send_packet(codec, packet) >= 0) decoded = avcodec_receive_frame(codec, frame) == 0;
        av_packet_unref(packet);
    }
    if (!decoded && avcodec_send_packet(codec, NULL) >= 0) decoded = avcodec_receive_frame(codec, frame) == 0;
    EXPECT(decoded && frame->width == width && frame->height == height, "first frame: %s, %dx%d", decoded ? "decoded" : "none",
           frame->width, frame->height);
    if (decoded)
        printf("  %s: %s stream %dx%d opened from memory, first frame decoded (%s, %dx%d)\n", vgn_check_base(path),
               avcodec_get_name(parameters->codec_id), parameters->width, parameters->height, av_get_pix_fmt_name(frame->format),
               frame->width, frame->height);
close:
    avcodec_free_context(&codec);
    avformat_close_input(&format);
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    if (format) avformat_close_input(&format);
    if (io) {
        av_freep(&io->buffer);
        avio_context_free(&io);
    } else {
        av_free(buffer);
    }
    free(data);
}

int main(int argc, char **argv) {
    if (argc != 6 && argc != 9) {
        fprintf(stderr, "usage: trampolines HEIF WIDTH HEIGHT THUMB_WIDTH THUMB_HEIGHT [CLIP WIDTH HEIGHT]\n");
        return 2;
    }
    printf("trampolines: libheif and FFmpeg opened with dlopen and called through the stubs (no DT_NEEDED)\n");
    check_heif(argv[1], atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    int skipped = argc != 9;
    if (skipped) printf("  FFmpeg: SKIPPED, no clip given (the host has no ffmpeg to make one)\n");
    else check_ffmpeg(argv[6], atoi(argv[7]), atoi(argv[8]));
    // A library that is not there: a message, no crash.
    const char *const missing[] = {"libvignette-not-there.so.0"};
    void *handle = NULL;
    char problem[256] = "";
    int status = vgn_lazy_open(missing, &handle, 1, "a missing library", problem, sizeof problem);
    EXPECT(status == -1 && strstr(problem, "a missing library could not be loaded") != NULL, "vgn_lazy_open of a missing library: %d, %s",
           status, problem);
    printf("  a missing library: \"%s\"\n", problem);
    printf("  %d failures\n", failures);
    return failures ? 1 : skipped ? VGN_CHECK_SKIPPED : 0;
}
