package extract

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// OCRStatus says whether OCR can run on this machine: tesseract found, and
// the language packs it reads.
type OCRStatus struct {
	Available bool
	Path      string    // the tesseract program found
	Languages []string  // installed language packs ("osd", which is none, left out)
	Message   string    // why OCR cannot run; "" when it can
	CheckedAt time.Time // when tesseract was last looked for; zero while the first look runs
}

// Messages of a status that is not available.
const (
	OCRNotInstalled = "tesseract is not installed: install tesseract-ocr to use OCR"
	ocrChecking     = "still looking for tesseract"
)

// Tunables of the probe.
const (
	ocrProbeTimeout = 5 * time.Second // for one run of tesseract --list-langs
	ocrProbeMaxAge  = time.Minute     // older answers are refreshed, so an install is noticed
)

// OCRProbe looks for tesseract and its language packs, and remembers the
// answer. A request never waits for more than one look (bounded by its
// time limit), and only the first: later ones get the remembered answer at
// once while an old one is refreshed in the background. It is safe for
// concurrent use; the zero value uses exec.LookPath and the defaults.
type OCRProbe struct {
	LookPath func(file string) (string, error) // exec.LookPath when nil
	Timeout  time.Duration                     // per look; ocrProbeTimeout when 0
	MaxAge   time.Duration                     // ocrProbeMaxAge when 0
	Now      func() time.Time                  // time.Now when nil

	mu      sync.Mutex
	last    OCRStatus
	have    bool
	running chan struct{} // closed when the running look ends; nil when none runs
}

// tesseract is the process's probe: extraction and the status share it.
var tesseract = &OCRProbe{}

// DefaultOCR is the process's probe, used where no other is given.
func DefaultOCR() *OCRProbe { return tesseract }

// CheckOCR reports whether OCR can run, with the process's probe.
func CheckOCR(ctx context.Context) OCRStatus { return tesseract.Status(ctx) }

// Status reports whether OCR can run. With no answer yet it waits for the
// first look, or until ctx ends (then it says it is still looking).
func (p *OCRProbe) Status(ctx context.Context) OCRStatus {
	p.mu.Lock()
	if p.have && p.now().Sub(p.last.CheckedAt) < cmp.Or(p.MaxAge, ocrProbeMaxAge) {
		st := p.last
		p.mu.Unlock()
		return st.clone()
	}
	done := p.startLocked()
	if p.have {
		st := p.last // stale: refreshed in the background
		p.mu.Unlock()
		return st.clone()
	}
	p.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return OCRStatus{Message: ocrChecking}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last.clone()
}

// SettleOCR waits until the process's probe is not looking. The probe
// belongs to the process, not to a server, so a look a server started may
// outlive it; each look ends within its time limit.
func SettleOCR() { tesseract.settle() }

func (p *OCRProbe) settle() {
	p.mu.Lock()
	done := p.running
	p.mu.Unlock()
	if done != nil {
		<-done
	}
}

// startLocked starts a look unless one runs, and returns its end.
func (p *OCRProbe) startLocked() <-chan struct{} {
	if p.running != nil {
		return p.running
	}
	done := make(chan struct{})
	p.running = done
	go func() {
		var st OCRStatus
		if err := protect(func() error { st = p.look(); return nil }); err != nil {
			st = OCRStatus{Message: "looking for tesseract failed: " + err.Error()}
		}
		st.CheckedAt = p.now()
		p.mu.Lock()
		p.last, p.have, p.running = st, true, nil
		p.mu.Unlock()
		close(done)
	}()
	return done
}

// look finds tesseract and asks it for its languages, within the time limit.
func (p *OCRProbe) look() OCRStatus {
	lookPath := p.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	bin, err := lookPath("tesseract")
	if err != nil {
		return OCRStatus{Message: OCRNotInstalled}
	}
	timeout := cmp.Or(p.Timeout, ocrProbeTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--list-langs")
	cmd.WaitDelay = time.Second // a child that keeps the output open must not hold the look
	out, err := runTool(cmd)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return OCRStatus{Path: bin, Message: fmt.Sprintf("tesseract did not answer within %v (tesseract --list-langs)", timeout)}
	case err != nil:
		return OCRStatus{Path: bin, Message: "tesseract does not work: " + err.Error()}
	}
	langs := parseLangs(string(out))
	if len(langs) == 0 {
		return OCRStatus{Path: bin, Message: "tesseract has no language packs: install one, such as tesseract-ocr-eng"}
	}
	return OCRStatus{Available: true, Path: bin, Languages: langs}
}

// parseLangs reads tesseract --list-langs: a heading line, then one
// language per line.
func parseLangs(out string) []string {
	var langs []string
	for i, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); i > 0 && l != "" && l != "osd" && !strings.ContainsAny(l, " \t\"+") {
			langs = append(langs, l)
		}
	}
	return langs
}

func (p *OCRProbe) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (st OCRStatus) clone() OCRStatus {
	st.Languages = slices.Clone(st.Languages)
	return st
}
