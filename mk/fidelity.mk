# Extraction fidelity: the Debian programs that make the corpus of
# bench/fidelity and serve as references (poppler's pdftotext; antiword,
# catdoc's xls2csv and catppt for Office 97-2003 files), tesseract for OCR,
# and the programs behind the DjVu and CHM readers (djvulibre-bin,
# libchm-bin; p7zip-full makes the 7z test archives). As root on Debian 12
# the missing packages are installed with apt-get (apt_pkgs, Makefile);
# otherwise the exact line is printed.

.PHONY: fidelity fidelity-deps

FIDELITY_PKGS := poppler-utils ghostscript qpdf groff librsvg2-bin imagemagick \
	tesseract-ocr tesseract-ocr-eng libreoffice-writer-nogui libreoffice-calc-nogui \
	libreoffice-impress-nogui chromium antiword catdoc p7zip-full djvulibre-bin libchm-bin

## fidelity-deps: the programs the fidelity corpus, its references and OCR need
fidelity-deps:
	$(call apt_pkgs,$(FIDELITY_PKGS))

## fidelity: word recall and precision of Trove's extractors against pdftotext, the 97-2003 readers and the source texts
fidelity: deps fidelity-deps
	$(GO) run ./bench/fidelity
