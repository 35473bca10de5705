# Extraction fidelity: the Debian programs that make the corpus of
# bench/fidelity and serve as references (poppler's pdftotext), and
# tesseract for OCR. As root on Debian 12 the missing packages are
# installed with apt-get (apt_pkgs, Makefile); otherwise the exact line is printed.

.PHONY: fidelity fidelity-deps

FIDELITY_PKGS := poppler-utils ghostscript qpdf groff librsvg2-bin imagemagick \
	tesseract-ocr tesseract-ocr-eng libreoffice-writer-nogui libreoffice-calc-nogui \
	libreoffice-impress-nogui chromium

## fidelity-deps: the programs the fidelity corpus, its references and OCR need
fidelity-deps:
	$(call apt_pkgs,$(FIDELITY_PKGS))

## fidelity: word recall and precision of Trove's extractors against pdftotext and the source texts
fidelity: deps fidelity-deps
	$(GO) run ./bench/fidelity
