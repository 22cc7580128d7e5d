#!/usr/bin/env bash
# Writes the seeds of FuzzSVG (svg) or FuzzPDF (pdf) into FOLDER: SVG documents of each shape the
# sanitiser and librsvg meet (viewBox, width/height, percentages, transforms, text, gradients,
# CSS, entities, a data: image) and hostile ones (entity expansion, an external DTD, remote and
# file references, @import, a script, a huge nominal size, deep nesting); PDFs made from them by
# cairo (rsvg-convert -f pdf, librsvg2-bin), one of them of several pages.
#   Fuzz/make-vector-seeds.sh svg|pdf FOLDER
set -euo pipefail
kind=$1 folder=$2
mkdir -p "$folder"
svg=$(mktemp -d)
trap 'rm -rf "$svg"' EXIT
ns='xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
cat > "$svg/viewbox.svg" <<E
<svg $ns viewBox="0 0 40 30"><rect x="2" y="2" width="36" height="26" fill="#2a6"/><circle cx="20" cy="15" r="9" fill="#fc0"/></svg>
E
cat > "$svg/size.svg" <<E
<?xml version="1.0" encoding="UTF-8"?>
<svg $ns width="64" height="48"><path d="M4 44 L32 4 L60 44 Z" fill="none" stroke="#c33" stroke-width="4"/></svg>
E
cat > "$svg/percent.svg" <<E
<svg $ns width="100%" height="100%" viewBox="0 0 20 10"><ellipse cx="10" cy="5" rx="9" ry="4" fill="navy"/></svg>
E
cat > "$svg/transforms.svg" <<E
<svg $ns width="50" height="50" viewBox="0 0 50 50"><g transform="translate(25 25)"><g transform="rotate(30) scale(1.5)"><g transform="skewX(10)"><rect x="-8" y="-8" width="16" height="16" fill="purple"/></g></g></g></svg>
E
cat > "$svg/text.svg" <<E
<svg $ns width="120" height="40"><text x="4" y="28" font-family="DejaVu Sans" font-size="22" fill="#123">Vignette</text></svg>
E
cat > "$svg/style.svg" <<E
<svg $ns viewBox="0 0 30 30"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient><style>.a { fill: url(#g); } /* c */ .b { stroke: #000 }</style></defs><rect class="a b" width="30" height="30" style="opacity: 0.9"/><use xlink:href="#g"/></svg>
E
cat > "$svg/entities.svg" <<E
<!DOCTYPE svg [ <!ENTITY colour "teal"> <!ENTITY ns_svg "http://www.w3.org/2000/svg"> ]>
<svg xmlns="&ns_svg;" width="20" height="20"><rect width="20" height="20" fill="&colour;"/><!-- note --></svg>
E
cat > "$svg/dataimage.svg" <<E
<svg $ns width="8" height="8"><image width="8" height="8" href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDK+mmyAAAAABJRU5ErkJggg=="/></svg>
E
cat > "$svg/laughs.svg" <<E
<!DOCTYPE svg [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"> <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"> ]>
<svg $ns width="10" height="10"><text y="9">&d;</text></svg>
E
cat > "$svg/external.svg" <<E
<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://127.0.0.1:9/svg11.dtd" [ <!ENTITY pw SYSTEM "file:///etc/passwd"> ]>
<?xml-stylesheet href="http://127.0.0.1:9/a.css"?>
<svg $ns width="10" height="10"><text y="9">&pw;</text><image href="http://127.0.0.1:9/x.png" width="5" height="5"/><image xlink:href="file:///etc/passwd" width="5" height="5"/><use xlink:href="http://127.0.0.1:9/r.svg#a"/><style>@import url(http://127.0.0.1:9/b.css); rect { fill: url(http://127.0.0.1:9/p.svg#f) }</style><script>alert(1)</script><rect width="5" height="5" onload="alert(2)"/></svg>
E
cat > "$svg/huge.svg" <<E
<svg $ns width="100000" height="100000" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"/></svg>
E
{ printf '<svg %s width="10" height="10">' "$ns"; for _ in $(seq 300); do printf '<g>'; done; printf '<rect width="5" height="5"/>'; for _ in $(seq 300); do printf '</g>'; done; printf '</svg>\n'; } > "$svg/deep.svg"
if [ "$kind" = svg ]; then
  cp "$svg"/*.svg "$folder/"
elif command -v rsvg-convert >/dev/null; then
  for name in viewbox size transforms text style; do rsvg-convert -f pdf -o "$folder/$name.pdf" "$svg/$name.svg"; done
  rsvg-convert -f pdf -o "$folder/pages.pdf" "$svg/viewbox.svg" "$svg/text.svg" "$svg/size.svg"
  # FuzzPDF's first byte picks the page.
  for f in "$folder"/*.pdf; do { printf '\x01'; cat "$f"; } > "$f.seed"; mv "$f.seed" "$f"; done
else
  echo "make-vector-seeds.sh: rsvg-convert (librsvg2-bin) is needed for PDF seeds" >&2
fi
