package extract

import (
	"bytes"
	"errors"
	"os/exec"
)

// DjVu documents are read by djvutxt (Debian's djvulibre-bin), which
// prints the hidden text layer that scanners and pdf2djvu write, pages
// separated by form feeds.

func extractDjVu(s *source, _ *Document) error {
	if _, err := exec.LookPath("djvutxt"); err != nil {
		return toolMissing("DjVu text", "djvutxt", "djvulibre-bin")
	}
	return inTempCopy(s, "in.djvu", func(_, path string) error {
		out, cut, err := runCapped(s.ctx, s.opt.MaxTextBytes+4, "djvutxt", path)
		if errors.Is(err, s.ctx.Err()) && err != nil {
			return err
		}
		out = bytes.ReplaceAll(out, []byte("\f"), []byte("\n\n"))
		s.text.WriteString(decodeText(out, !cut))
		if cut {
			s.text.cut = true
		}
		switch {
		case err != nil:
			return warnf("corrupt DjVu (%v): contents not fully indexed", err)
		case len(bytes.TrimSpace(out)) == 0:
			return warning("DjVu document without a text layer: contents not indexed")
		}
		return nil
	})
}
