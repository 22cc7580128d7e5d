#!/usr/bin/env bash
# One way for each concern, checked (make test): the lock's pthread calls only in the lock types,
# threads made only by WorkerThread, no Dispatch queues, libvips imported only by VignetteCodecs,
# libvips' pixel memory and VipsImage fields reached only in Image+PixelMemory, TurboJPEG handles
# made and destroyed only by the TurboJPEG class. And the modules' one way down: each imports only
# the modules below it (the table below), and nothing is re-exported but the core's own codecs.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
refuse() { # pattern, allowed-files regex, what it means
  local found
  found=$(grep -rnE "$1" Sources --include='*.swift' | grep -vE "^($2):" | grep -vE '^[^:]+:[0-9]+:\s*///')
  if [ -n "$found" ]; then
    echo "check-one-way: $3:" >&2
    echo "$found" >&2
    status=1
  fi
}
refuse 'pthread_(mutex|cond)_' 'Sources/VignetteSupport/Locked\.swift' 'pthread locks outside Locked'
refuse 'pthread_create|Thread\.detachNewThread|[^a-zA-Z]Thread *(\{|\()' 'Sources/VignetteSupport/WorkerThread\.swift' 'threads made outside WorkerThread'
refuse 'DispatchQueue' '^$' 'a Dispatch queue (use BlockingExecutor)'
refuse '^(internal |@_implementationOnly |package )?import CVignetteVips' 'Sources/VignetteCodecs/[^:]*' 'libvips imported outside VignetteCodecs'
refuse 'pointee\.(`?Type`?|data|dtype|Xres|Yres|Xsize|Ysize|Bands|BandFmt|Coding|Xoffset|Yoffset)\b|vips_image_get_data' \
  'Sources/VignetteCodecs/Image/Image\+PixelMemory\.swift|Sources/VignetteCodecs/Video/VideoFrameConverter\.swift' \
  'pixel memory or VipsImage fields reached outside Image+PixelMemory (VideoFrameConverter reads an AVFrame'"'"'s planes, not a VipsImage'"'"'s)'
refuse 'tjInit|tjDestroy' 'Sources/VignetteCodecs/JPEG/TurboJPEG\.swift' 'TurboJPEG handles made or destroyed outside the TurboJPEG class'
refuse '(^|[^.a-zA-Z_"])((l|f)?stat|mkdir|rmdir|opendir|readdir|closedir)\(' 'Sources/VignetteSupport/[^:]*' 'stat or folder calls outside VignetteSupport (FileStatus, Folder)'
# The modules, each with what it may import of the package's own (C targets aside): one way down,
# from the CLI to the support module.
declare -A below=(
  [VignetteSupport]=""
  [VignetteCodecs]="VignetteSupport"
  [Vignette]="VignetteSupport VignetteCodecs"
  [VignetteImgproxy]="VignetteSupport VignetteCodecs Vignette"
  [VignetteHTTP]="VignetteSupport VignetteCodecs Vignette"
  [VignetteRedis]="VignetteSupport VignetteCodecs Vignette"
  [VignetteServer]="VignetteSupport VignetteCodecs Vignette VignetteImgproxy VignetteHTTP VignetteRedis"
  [VignetteHummingbird]="VignetteSupport VignetteCodecs Vignette VignetteImgproxy VignetteServer"
  [VignetteVapor]="VignetteSupport VignetteCodecs Vignette VignetteImgproxy VignetteServer"
  [VignetteCLI]="VignetteSupport VignetteCodecs Vignette VignetteImgproxy VignetteHTTP VignetteRedis VignetteServer VignetteHummingbird"
)
for module in "${!below[@]}"; do
  [ -d "Sources/$module" ] || { echo "check-one-way: no module Sources/$module" >&2; status=1; continue; }
  while IFS=: read -r file line imported; do
    [[ " ${below[$module]} " == *" $imported "* ]] && continue
    echo "check-one-way: $file:$line: $module imports $imported, which is not below it" >&2
    status=1
  done < <(grep -rnoE '^(@testable |@_exported |internal |package |public )?import Vignette[A-Za-z]*' "Sources/$module" --include='*.swift' |
    sed -E 's/:[^:]*import /:/')
done
refuse '^@_exported import' 'Sources/Vignette/Exports\.swift' 're-exports (only the core re-exports its codecs)'
[ $status = 0 ] && echo "check-one-way: one lock, one thread maker, no Dispatch queues, libvips in the codecs alone," \
  "pixel memory through Image, TurboJPEG handles through TurboJPEG, every module importing only those below it"
exit $status
