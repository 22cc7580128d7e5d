# The `vignette serve` image (docs/deploy.md):
#   docker build -t vignette .
#   docker run --rm -p 8080:8080 --stop-timeout 20 -v /srv/images:/images:ro vignette --root /images
# Arguments after the image name are added to `vignette serve --bind 0.0.0.0:8080`; settings may
# also come as environment variables (--env-file deploy/vignette.env). `make image-check` builds
# this runtime stage's root filesystem without Docker and checks the server in it.
#
# DEBIAN_RELEASE is bookworm (Debian 12, the default) or trixie (Debian 13):
#   docker build --build-arg DEBIAN_RELEASE=trixie -t vignette .
# The binary is built on the release it runs on (it links that release's libraries), and the run
# stage installs deploy/runtime-packages-$DEBIAN_RELEASE.txt; `make image-check RELEASE=trixie`
# checks that stage.
ARG DEBIAN_RELEASE=bookworm
# Swift 6.3, the toolchain the repository is built and measured with (the dependency versions
# it resolves today need tools version 6.2 or newer, so swift:6.1 is not enough), on the same
# Debian release as the run stage; give SWIFT_IMAGE for a Swift image of your own of that release.
ARG SWIFT_IMAGE=swift:6.3-${DEBIAN_RELEASE}

FROM ${SWIFT_IMAGE} AS build
# The C libraries' -dev packages (the Makefile's BUILD_PACKAGES): libvips and the codecs
# Vignette calls itself, hiredis, FFmpeg's for the Video trait and OpenCV's for the Faces trait.
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && apt-get install -y -q --no-install-recommends \
        $(command -v ld.gold >/dev/null || echo binutils-gold) \
        libvips-dev libwebp-dev libheif-dev libhiredis-dev libturbojpeg0-dev liblcms2-dev libdeflate-dev pkg-config \
        libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libopencv-objdetect-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The Swift runtime and Foundation linked in statically: the runtime image needs no Swift. The
# DWARF debug information stripped (178 MB to 116 MB); the symbols stay, for crash backtraces.
RUN swift build -c release --static-swift-stdlib --product vignette --traits CLI,Video,Faces \
    && install -D -m 0755 .build/release/vignette /out/vignette \
    && strip --strip-debug /out/vignette

FROM debian:${DEBIAN_RELEASE}-slim
ARG DEBIAN_RELEASE
# Exactly the packages in deploy/runtime-packages-$DEBIAN_RELEASE.txt (the libraries the binary
# links or opens, with their dependencies), as `make image-check` installs them.
COPY deploy/runtime-packages-${DEBIAN_RELEASE}.txt /tmp/runtime-packages.txt
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update -q \
    && sed -e 's/#.*//' /tmp/runtime-packages.txt | xargs apt-get install -y -q --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt
# An unprivileged user of its own; /var/cache/vignette is its, for a disk cache on a volume
# (-v vignette-cache:/var/cache/vignette -e VIGNETTE_CACHE=/var/cache/vignette).
RUN groupadd --gid 10001 vignette \
    && useradd --uid 10001 --gid vignette --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin vignette \
    && install -d -o vignette -g vignette -m 0750 /var/cache/vignette
COPY --from=build /out/vignette /usr/local/bin/vignette
# The YuNet face model, when deploy/face_detection_yunet_2022mar.onnx (bookworm's OpenCV 4.6) or
# _2023mar.onnx (trixie's OpenCV 4.10) is in the build context (opencv_zoo's files; README,
# "Faces"): then -e VIGNETTE_FACE_MODEL=/usr/local/share/vignette/<that file> turns on
# g:obj:face. The glob lets the build go on without them.
COPY deploy/healthcheck.sh deploy/face_detection_yunet_202?mar.onn[x] /usr/local/share/vignette/
# GET /health through bash's /dev/tcp: the image has no curl.
COPY deploy/healthcheck.sh /usr/local/bin/vignette-healthcheck
USER 10001:10001
EXPOSE 8080
# SIGTERM drains requests in flight for up to 10 s (VIGNETTE_SHUTDOWN_TIMEOUT) and writes the disk
# cache: give `docker stop` more than its default 10 s (--stop-timeout 20, stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["vignette-healthcheck", "127.0.0.1:8080"]
ENTRYPOINT ["vignette", "serve", "--bind", "0.0.0.0:8080"]
