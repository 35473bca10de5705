package extract

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// xzWithDict returns xz with the block header at off asking for the
// dictionary size property dict (40: 4 GiB), its CRC mended.
func xzWithDict(t testing.TB, data []byte, off int, dict byte) []byte {
	t.Helper()
	out := bytes.Clone(data)
	size := (int(out[off]) + 1) * 4
	if out[off+1] != 0 || out[off+2] != 0x21 || out[off+3] != 1 {
		t.Fatalf("block header at %d is not a bare LZMA2 one: % x", off, out[off:off+size])
	}
	out[off+4] = dict
	binary.LittleEndian.PutUint32(out[off+size-4:], crc32.ChecksumIEEE(out[off:off+size-4]))
	return out
}

// TestXZDictionaryLimit: an xz block that asks for a dictionary above the
// limit is refused with a warning before the decoder allocates it, in the
// first block, in a later block and in a later stream; files within the
// limit, with several blocks and streams, read as without the guard.
func TestXZDictionaryLimit(t *testing.T) {
	one, err := os.ReadFile("testdata/diary.txt.xz")
	if err != nil {
		t.Fatal(err)
	}
	huge := xzWithDict(t, one, 12, 40)
	cases := map[string][]byte{
		"first block":   huge,
		"second stream": append(append(bytes.Clone(one), 0, 0, 0, 0), huge...),
	}
	if _, err := exec.LookPath("xz"); err == nil {
		text := strings.Repeat("The numbat compressed its diary, one page a day. ", 400)
		cmd := exec.Command("xz", "-T1", "--block-size=4000", "--lzma2=dict=64KiB", "-c")
		cmd.Stdin = strings.NewReader(text)
		blocks, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		offs := xzBlockOffsets(t, blocks)
		if len(offs) < 3 {
			t.Fatalf("blocks at %v", offs)
		}
		cases["last block"] = xzWithDict(t, blocks, offs[len(offs)-1], 40)
		// Several blocks and streams within the limit read whole.
		both := append(append(bytes.Clone(blocks), 0, 0, 0, 0), blocks...)
		doc := extractBytes(t, "diary.txt.xz", both, Options{})
		if doc.Warning != "" || doc.Text != strings.TrimSpace(text+text) {
			t.Errorf("within the limit: warning %q, %d bytes of %d", doc.Warning, len(doc.Text), 2*len(text))
		}
	} else {
		t.Log("xz is not installed: the multi-block cases are skipped")
	}
	for name, data := range cases {
		doc := extractBytes(t, "diary.txt.xz", data, Options{})
		if doc.Warning != errXZDict.Error() {
			t.Errorf("%s: warning %q", name, doc.Warning)
		}
	}
	// The limit is the guard's: the same stream read through it by the
	// decoder alone fails at once, and at the limit it passes.
	if _, err := io.ReadAll(mustXZ(t, newXZGuard(bytes.NewReader(huge), decoderMaxWindow))); err != errXZDict {
		t.Errorf("guard: %v", err)
	}
	at := xzWithDict(t, one, 12, 28) // 64 MiB, xz -9's
	if got, err := io.ReadAll(mustXZ(t, newXZGuard(bytes.NewReader(at), decoderMaxWindow))); err != nil || !bytes.Contains(got, []byte("numbat")) {
		t.Errorf("64 MiB: %v %q", err, got)
	}
}

func mustXZ(t *testing.T, r io.Reader) *xz.Reader {
	t.Helper()
	xr, err := xz.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	return xr
}

// xzBlockOffsets asks the xz program where a file's blocks start.
func xzBlockOffsets(t *testing.T, data []byte) []int {
	t.Helper()
	path := t.TempDir() + "/f.xz"
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xz", "-lvv", "--robot", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var offs []int
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, "\t"); f[0] == "block" && len(f) > 4 {
			off, err := strconv.Atoi(f[4])
			if err != nil {
				t.Fatal(line)
			}
			offs = append(offs, off)
		}
	}
	return offs
}

func TestXZDictSize(t *testing.T) {
	for b, want := range map[byte]uint64{0: 4 << 10, 1: 6 << 10, 22: 8 << 20, 28: 64 << 20, 39: 3 << 30, 40: 1<<32 - 1} {
		if got := xzDictSize(b); got != want {
			t.Errorf("%d: %d, want %d", b, got, want)
		}
	}
}

// FuzzXZGuard: the guard's verdict on a stream does not depend on how the
// reads cut it, and no input makes it panic.
func FuzzXZGuard(f *testing.F) {
	one := fixtureBytes(f, "diary.txt.xz")
	f.Add(one, uint8(0))
	f.Add(append(append(bytes.Clone(one), 0, 0, 0, 0), xzWithDict(f, one, 12, 40)...), uint8(6))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		whole := newXZGuard(nil, decoderMaxWindow).feed(data)
		g := newXZGuard(nil, decoderMaxWindow)
		var cut error
		for b := data; len(b) > 0 && cut == nil; {
			k := min(len(b), int(step)+1)
			cut = g.feed(b[:k])
			b = b[k:]
		}
		if whole != cut {
			t.Fatalf("whole: %v, in reads of %d: %v", whole, int(step)+1, cut)
		}
	})
}
