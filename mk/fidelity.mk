# Extraction fidelity: the Debian programs that make the corpus of
# bench/fidelity and serve as references (poppler's pdftotext), and
# tesseract for OCR. As root on Debian 12 the missing packages are
# installed with apt-get; otherwise the exact line is printed.

.PHONY: fidelity fidelity-deps

FIDELITY_PKGS := poppler-utils ghostscript qpdf groff librsvg2-bin imagemagick \
	tesseract-ocr tesseract-ocr-eng libreoffice-writer-nogui libreoffice-calc-nogui \
	libreoffice-impress-nogui chromium

## fidelity-deps: the programs the fidelity corpus, its references and OCR need
fidelity-deps:
	@missing=""; for p in $(FIDELITY_PKGS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    $(APT_INSTALL) $$missing >/dev/null || exit 1; \
	  else \
	    echo "The fidelity corpus and OCR need these packages. Install them with:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

## fidelity: word recall and precision of Trove's extractors against pdftotext and the source texts
fidelity: deps fidelity-deps
	$(GO) run ./bench/fidelity
