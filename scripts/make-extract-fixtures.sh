#!/usr/bin/env bash
# Regenerates the committed fixtures of backend/engine/extract/testdata: office
# documents (OOXML, ODF and 97-2003), PDF (plain and encrypted), EPUB and RTF
# made by LibreOffice from the flat ODF sources below, MOBI and AZW3 made by
# calibre from the EPUB, DjVu by pdf2djvu from the PDF, a CHM by Free
# Pascal's chmcmd, 7z archives (solid, encrypted, encrypted names, a plain
# LZMA header), a JPEG with EXIF, a FLAC with tags, and the text formats.
# The tests never need these tools; only this script does. (RAR test
# archives are built by the tests: no free program writes RAR.)
#
# Needs (Debian): libreoffice-writer-nogui libreoffice-calc-nogui
# libreoffice-impress-nogui qpdf libimage-exiftool-perl sox calibre pdf2djvu
# fp-utils p7zip-full, and Go.
# Every body holds a word found nowhere else ("quokkaloaf", ...), which the
# tests look for.
set -euo pipefail
cd "$(dirname "$0")/.."
out=backend/engine/extract/testdata
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

NS='xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"'

cat > "$work/writer.fodt" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<office:document $NS office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta><dc:title>Quokka Field Notes</dc:title><meta:initial-creator>Ada Lovelace</meta:initial-creator><dc:creator>Ada Lovelace</dc:creator></office:meta>
 <office:body><office:text>
  <text:h text:style-name="Heading_20_1" text:outline-level="1">Observations at Dawn</text:h>
  <text:p>The quokkaloaf ritual begins at dawn; naïve café visitors watch.</text:p>
  <text:p>Second paragraph with tab<text:tab/>and more words.</text:p>
 </office:text></office:body>
</office:document>
EOF

cat > "$work/calc.fods" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<office:document $NS office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:meta><dc:title>Marsupial Ledger</dc:title></office:meta>
 <office:body><office:spreadsheet>
  <table:table table:name="Marsupials">
   <table:table-row><table:table-cell office:value-type="string"><text:p>Name</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Count</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell office:value-type="string"><text:p>wombatcrumble</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="42"><text:p>42</text:p></table:table-cell></table:table-row>
  </table:table>
  <table:table table:name="Burrows"><table:table-row><table:table-cell office:value-type="string"><text:p>bilbyburrow</text:p></table:table-cell></table:table-row></table:table>
 </office:spreadsheet></office:body>
</office:document>
EOF

cat > "$work/impress.fodp" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<office:document $NS office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:meta><dc:title>Platypus Symposium</dc:title></office:meta>
 <office:body><office:presentation>
  <draw:page draw:name="page1">
   <draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Platypus Symposium</text:p></draw:text-box></draw:frame>
   <draw:frame presentation:class="outline" svg:x="2cm" svg:y="5cm" svg:width="20cm" svg:height="10cm"><draw:text-box><text:p>The platypusbrioche tasting</text:p></draw:text-box></draw:frame>
   <presentation:notes><draw:frame presentation:class="notes" svg:x="2cm" svg:y="14cm" svg:width="17cm" svg:height="10cm"><draw:text-box><text:p>Speaker note about echidnamuffin</text:p></draw:text-box></draw:frame></presentation:notes>
  </draw:page>
 </office:presentation></office:body>
</office:document>
EOF

lo() { soffice --headless --norestore --convert-to "$1" --outdir "$work" "$2" >/dev/null 2>&1; }
lo 'docx:MS Word 2007 XML' "$work/writer.fodt"
lo odt "$work/writer.fodt"
lo 'rtf:Rich Text Format' "$work/writer.fodt"
lo 'pdf:writer_pdf_Export' "$work/writer.fodt"
lo epub "$work/writer.fodt"
lo 'xlsx:Calc MS Excel 2007 XML' "$work/calc.fods"
lo ods "$work/calc.fods"
lo 'pptx:Impress MS PowerPoint 2007 XML' "$work/impress.fodp"
lo odp "$work/impress.fodp"
lo 'doc:MS Word 97' "$work/writer.fodt"
lo 'xls:MS Excel 97' "$work/calc.fods"
lo 'ppt:MS PowerPoint 97' "$work/impress.fodp"
for f in writer.docx writer.odt writer.rtf writer.pdf writer.epub calc.xlsx calc.ods impress.pptx impress.odp \
  writer.doc calc.xls; do
  cp "$work/$f" "$out/$f"
done
# LibreOffice stores a 440 KB preview bitmap in every .ppt: kept gzipped.
gzip -9n -c "$work/impress.ppt" > "$out/impress.ppt.gz"
qpdf --object-streams=generate "$out/writer.pdf" "$out/objstm.pdf"
ebook-convert "$out/writer.epub" "$out/writer.mobi" >/dev/null
ebook-convert "$out/writer.epub" "$out/writer.azw3" >/dev/null
pdf2djvu -q -o "$out/writer.djvu" "$out/writer.pdf"

# A help file of two pages and a table of contents.
mkdir -p "$work/chm"
cat > "$work/chm/a.html" <<'EOF'
<html><head><title>Numbat Help</title></head><body><h1>Numbat Help</h1><p>The numbatnectar page explains termites.</p></body></html>
EOF
cat > "$work/chm/b.html" <<'EOF'
<html><head><title>Second Page</title></head><body><p>Second page about bilbyballad.</p></body></html>
EOF
cat > "$work/chm/toc.hhc" <<'EOF'
<html><body><ul><li><object type="text/sitemap"><param name="Name" value="Numbat Help"><param name="Local" value="a.html"></object>
<li><object type="text/sitemap"><param name="Name" value="Second"><param name="Local" value="b.html"></object></ul></body></html>
EOF
printf '[OPTIONS]\nCompiled file=help.chm\nContents file=toc.hhc\nDefault topic=a.html\nTitle=Numbat Help\n\n[FILES]\na.html\nb.html\n' > "$work/chm/help.hhp"
(cd "$work/chm" && chmcmd help.hhp >/dev/null)
cp "$work/chm/help.chm" "$out/help.chm"

# 7z: a solid archive with a binary entry, the same entries encrypted, an
# archive with encrypted names, and one with a plain LZMA header.
mkdir -p "$work/7z/src/docs"
printf 'The cassowary 7z member mentions kiwifritter.\n' > "$work/7z/src/docs/notes.txt"
printf '# Readme\nA marmotmuffin line.\n' > "$work/7z/src/readme.md"
head -c 3000 /dev/urandom > "$work/7z/src/blob.bin"
z7=$(realpath "$out")
rm -f "$z7/solid.7z" "$z7/encrypted.7z" "$z7/hidden-names.7z" "$z7/lzma-header.7z"
(cd "$work/7z/src" &&
  7z a -bd -mx=9 -ms=on "$z7/solid.7z" docs/notes.txt readme.md blob.bin >/dev/null &&
  7z a -bd -ptrovepass "$z7/encrypted.7z" docs/notes.txt readme.md >/dev/null &&
  7z a -bd -ptrovepass -mhe=on "$z7/hidden-names.7z" docs/notes.txt >/dev/null)
(cd "$work/7z" && 7z a -bd -m0=LZMA:d=1m -mhc=off "$z7/lzma-header.7z" src/docs/notes.txt >/dev/null)
qpdf --encrypt trovepass ownerpass 256 -- "$out/writer.pdf" "$out/encrypted.pdf"

# A small JPEG, then EXIF camera and date written by exiftool.
mkdir -p "$work/jpeg"
cat > "$work/jpeg/main.go" <<'EOF'
package main

import (
	"image"
	"image/color"
	"image/jpeg"
	"os"
)

func main() {
	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	img.Set(0, 0, color.White)
	jpeg.Encode(os.Stdout, img, &jpeg.Options{Quality: 50})
}
EOF
(cd "$work/jpeg" && GO111MODULE=off go run main.go) > "$out/photo.jpg"
exiftool -q -overwrite_original -Make="Trovecam" -Model="Trovecam QX-7" \
  -DateTimeOriginal="2021:03:04 05:06:07" "$out/photo.jpg"

# A tenth of a second of tone with Vorbis comments.
sox -n -r 8000 -b 16 -c 1 --comment "TITLE=Song of the Numbat" \
  --add-comment "ARTIST=The Bandicoots" --add-comment "ALBUM=Outback Tapes" \
  "$out/tone.flac" synth 0.1 sine 440

cat > "$out/page.html" <<'EOF'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Wallaby Gazette</title>
<meta name="author" content="Grace Hopper">
<style>.quokkaloaf-style { color: red }</style>
<script>var hidden = "scriptonlyword";</script></head>
<body><h1>Front Page</h1>
<p>News of the <b>kangaroojam</b> festival &amp; more.</p>
<ul><li>First</li><li>Second</li></ul>
<noscript>noscriptonlyword</noscript>
</body></html>
EOF

cat > "$out/notes.md" <<'EOF'
---
title: Koala Handbook
author: Mary Shelley
---
# Getting Started

Feed the **koalacrumpet** with [fresh leaves](https://example.com/eucalyptus-url-only).
![a photo of a koala](images/koala.png)

- item with `inline_code`
- snake_case_word stays

```go
fmt.Println("codeblockword")
```

[ref]: https://example.com/referenceonlyurl
EOF

cat > "$out/message.eml" <<'EOF'
From: Alice Example <alice@example.com>
To: Bob Example <bob@example.com>
Subject: =?UTF-8?Q?Dingo_d=C3=A9j=C3=A0_vu?=
Date: Mon, 02 Jan 2023 10:00:00 +0000
Message-ID: <1@example.com>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

The dingoscone recipe is attached. Caf=C3=A9 at noon.
--inner
Content-Type: text/html; charset=utf-8

<p>The dingoscone recipe is attached (html).</p>
--inner--

--outer
Content-Type: application/pdf; name="recipe.pdf"
Content-Disposition: attachment; filename="recipe.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQK
--outer--
EOF

cat > "$out/inbox.mbox" <<'EOF'
From alice@example.com Mon Jan  2 10:00:00 2023
From: Alice <alice@example.com>
Subject: First wombat
Date: Mon, 02 Jan 2023 10:00:00 +0000

Body of the first message mentions emupudding.
>From here on it is quoted.

From bob@example.com Tue Jan  3 11:00:00 2023
From: Bob <bob@example.com>
Subject: Second wombat
Date: Tue, 03 Jan 2023 11:00:00 +0000
Content-Type: text/html; charset=utf-8

<html><body><p>The second one mentions <i>possumpie</i>.</p></body></html>
EOF

printf 'name,habitat,notes\n"Tasmanian devil",island,"likes ""devilcake"", a lot"\nnumbat,woodland,termites\n' > "$out/animals.csv"
printf 'name\thabitat\nquoll\tforest quolltart\n' > "$out/animals.tsv"
cat > "$out/config.json" <<'EOF'
{"name": "Trove fixture", "animals": [{"species": "cassowarycurry", "count": 3}], "nested": {"deep": {"escaped": "tab\there \u00e9"}}, "flag": true}
EOF
cat > "$out/config.yaml" <<'EOF'
# a comment with yamlcommentword
title: Lyrebird settings
birds:
  - name: lyrebirdlatte
    calls: 20
anchors: &a
  key: value
alias: *a
EOF
cat > "$out/config.toml" <<'EOF'
title = "Galah Config"
[owner]
name = "galahgoulash keeper"
[[flock]]
bird = "cockatoo"
EOF
cat > "$out/feed.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Echidna Feed</title>
<item><title>First post</title><description><![CDATA[About the echidnaeclair.]]></description></item>
</channel></rss>
EOF
printf 'Caf\xe9 cr\xe8me br\xfbl\xe9e \x93smart quotes\x94 bandicootbagel\n' > "$out/latin1.txt"
printf '\xff\xfe' > "$out/utf16le.txt"
printf 'UTF-16 text with thylacinetoast and \xe2\x82\xac\n' | iconv -f UTF-8 -t UTF-16LE >> "$out/utf16le.txt"
printf '\xfe\xff' > "$out/utf16be.txt"
printf 'Big endian sugarglidersoup\n' | iconv -f UTF-8 -t UTF-16BE >> "$out/utf16be.txt"
printf 'package main\n\n// Plain source with a wallabywaffle comment.\nfunc main() {}\n' > "$out/source.go"
ls -l "$out"
