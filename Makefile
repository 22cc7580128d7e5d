# Vignette — `make demo`, `make test`, `make bench`. Each installs the Debian packages it needs
# when they are missing (apt-get, as root or through sudo).

SHELL := /bin/bash
SWIFT ?= swift
DEMO_OUT ?= demo-thumbnails
DEMO_SIZE ?= 256

# Build and test needs: the -dev packages the C targets link against.
# FFmpeg's (libavformat, libavcodec, libavutil, libswscale) only for the Video trait, which the
# repository's own builds enable.
# libheif's decoders (HEVC, AV1) and encoders (x265, aom): plugins of their own on Debian 13, only
# recommended by libheif1; built into libheif on Debian 12, which has no such packages (`?`:
# installed where the release has them, Scripts/install-packages.sh).
HEIF_PLUGINS := libheif-plugin-libde265? libheif-plugin-dav1d? libheif-plugin-x265? libheif-plugin-aomenc?
BUILD_PACKAGES := libvips-dev libwebp-dev libheif-dev libhiredis-dev libturbojpeg0-dev liblcms2-dev libdeflate-dev pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libopencv-objdetect-dev g++ $(HEIF_PLUGINS)
# g++: the Faces shim is C++, and the toolchain's clang reads GCC's libstdc++ headers (Debian 12's
# OpenCV packages happen to bring them; Debian 13's do not).
# The shared-cache tests start a redis-server of their own on 127.0.0.1; the operation tests
# compare with references made by libvips' own `vips` command (libvips-tools); the colour tests
# with conversions made by littleCMS' `transicc` (liblcms2-utils). The format tests read Vignette's
# TIFF, BMP and ICO outputs back with ImageMagick's coders through that `vips` (magickload:
# libmagickcore comes with libvips42, as libjxl, which JPEG XL goes through, does). The S3 tests
# run moto's server and botocore from a venv of the project's own (.venv-test, Scripts/test-venv.sh,
# from PyPI). The JPEG DC tests make their JPEGs with libjpeg-turbo's `cjpeg` and `jpegtran`
# (libjpeg-turbo-progs). The video tests and FuzzVideo's seeds make their clips with `ffmpeg`.
# librsvg2-bin (rsvg-convert), poppler-utils (pdftoppm) and fonts-dejavu-core: the SVG and PDF
# references and the fonts their text is drawn in (SVGSourceTests, PDFSourceTests, FuzzPDF seeds).
TEST_PACKAGES := redis-server libvips-tools liblcms2-utils python3 python3-venv libjpeg-turbo-progs libimage-exiftool-perl ffmpeg librsvg2-bin poppler-utils fonts-dejavu-core python3-opencv
# Fixture tools (Fixtures/make-fixtures.sh), the whole-process benchmark peers, and the redis-server
# the shared-cache benchmark starts on 127.0.0.1.
TOOL_PACKAGES := libvips-tools colord-data imagemagick libheif-examples webp libimage-exiftool-perl hyperfine python3-venv curl libjpeg-dev zlib1g-dev python3-dev redis-server

.PHONY: demo test docs docs-check bench bench-server fixtures install-deps install-tools build release clean fuzz fuzz-smoke sanitize image-check check-debian12 check-debian13 check-arm64

# The Swift toolchain links with gold: part of binutils on Debian 12, the package binutils-gold of
# its own on Debian 13.
install-deps:
	@command -v ld.gold >/dev/null || Scripts/install-packages.sh binutils-gold
	@Scripts/install-packages.sh $(BUILD_PACKAGES)

install-tools:
	@Scripts/install-packages.sh $(TOOL_PACKAGES)

# This repository's own builds enable every package trait (Package.swift): the CLI, the servers,
# the examples, the benchmark harness and the fuzz targets are all targets of the one package, so
# `make demo` and `make test` build the dependency graph once, into .build.
TRAITS ?= --enable-all-traits

build: install-deps
	$(SWIFT) build $(TRAITS)

# The Swift runtime and Foundation linked in statically: a `vignette` process starts in about 35 ms
# of CPU instead of 50 (fewer libraries to load and relocate), which a script calling it per file feels.
release: install-deps
	$(SWIFT) build -c release --static-swift-stdlib --product vignette --traits CLI

# The demo runs the debug build that `make test` then reuses.
demo: build
	@rm -rf $(DEMO_OUT)
	@echo "== vignette thumbnail: every image in Fixtures/ into $(DEMO_OUT)/ ($(DEMO_SIZE)px box)"
	@.build/debug/vignette thumbnail $$(ls Fixtures/* | grep -vE '\.(sh|md|tsv)$$') --size $(DEMO_SIZE) --out $(DEMO_OUT) --json > $(DEMO_OUT).json 2>/dev/null; \
	  status=$$?; \
	  Scripts/summarize-demo.sh $(DEMO_OUT).json; \
	  echo "(exit status $$status: 1 is expected, Fixtures/ holds broken files on purpose)"; \
	  echo "== thumbnails are in $(DEMO_OUT)/, the JSON report in $(DEMO_OUT).json"

# Each step is timed (Scripts/timed.sh) so that a slow one shows in the log.
test: install-deps
	@Scripts/install-packages.sh $(TEST_PACKAGES)
	@Scripts/timed.sh "test venv" Scripts/test-venv.sh >/dev/null
	@python3 Scripts/undocumented.py Sources/Vignette Sources/VignetteCodecs Sources/VignetteImgproxy Sources/VignetteHTTP Sources/VignetteServer Sources/VignetteHummingbird Sources/VignetteRedis Sources/VignetteVapor
	@python3 Scripts/check-doc-links.py
	@Scripts/check-one-way.sh
	@Scripts/timed.sh "core dependencies" Scripts/check-core-dependencies.sh
	@Scripts/timed.sh "build" $(SWIFT) build --build-tests $(TRAITS)
	@Scripts/timed.sh "docs" Scripts/docs.sh --warnings-as-errors
	@Scripts/timed.sh "example manifests" Scripts/check-examples.sh
	@Scripts/timed.sh "fuzz replay" Scripts/fuzz.sh --replay-plain
	@SWIFT=$(SWIFT) Scripts/timed.sh "tests" Scripts/run-tests.sh

# The DocC documentation of every library module (Sources/<Module>/<Module>.docc and the doc
# comments) into .build/docs/<Module>, from the main build's symbol graphs with the toolchain's
# docc (Scripts/docs.sh); docs-check fails on any DocC warning.
docs: install-deps
	Scripts/docs.sh

docs-check:
	Scripts/docs.sh --warnings-as-errors

# libFuzzer targets (Fuzz/Sources, built with -sanitize=fuzzer,address into .build-fuzz) for FUZZ_SECONDS
# each (default 300), FUZZ_JOBS at a time (2); findings go to .fuzz/findings/ and make it fail.
# fuzz-smoke replays the seeds and regressions once through that instrumented build (.ci/run runs it
# after make test; make test replays them through its own plain build).
fuzz: install-deps
	Scripts/fuzz.sh

fuzz-smoke: install-deps
	Scripts/fuzz.sh --replay

# The whole suite under AddressSanitizer, then ThreadSanitizer (swiftc on Linux refuses -sanitize=undefined).
sanitize: install-deps
	Scripts/sanitize.sh

fixtures: install-tools
	Fixtures/make-fixtures.sh

bench: install-deps install-tools
	Benchmarks/run.sh

# vignette serve beside thumbor 7 under wrk (Benchmarks/server/run.sh): req/s, p50/p99, CPU and memory, a soak.
bench-server: release install-tools
	Benchmarks/server/run.sh

clean:
	rm -rf .build $(DEMO_OUT) $(DEMO_OUT).json

# The runtime image's root filesystem of a Debian release (RELEASE=bookworm, the default, or
# trixie) from deploy/runtime-packages-RELEASE.txt (mmdebstrap), the release binary built on that
# release run in it under chroot as an unprivileged user; the systemd unit verified (docs/deploy.md).
RELEASE ?= bookworm
image-check:
	Scripts/image-check.sh $(RELEASE)

# The README's two commands in a fresh root filesystem of Debian 12 or 13 (mmdebstrap; the
# toolchain bound in, the committed HEAD cloned), as a user would run them (docs/install.md).
check-debian12:
	Scripts/check-debian.sh bookworm

check-debian13:
	Scripts/check-debian.sh trixie

# Vignette's own C (the JPEG decoders, the resize kernels and colour tables, the lazy loaders'
# trampolines) compiled for arm64 against a Debian root filesystem made by mmdebstrap and checked
# under qemu-user, then the same checks natively (Scripts/check-arm64.sh); Swift is not built.
check-arm64:
	Scripts/check-arm64.sh
