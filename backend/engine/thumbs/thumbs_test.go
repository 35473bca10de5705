package thumbs

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Past its cap, the cache drops the pictures used longest ago, down to
// three quarters of the cap; a picture read is used.
func TestCacheDropsWhatWasUsedLongestAgo(t *testing.T) {
	c := &Cache{Dir: t.TempDir(), Cap: 10_000}
	picture := bytes.Repeat([]byte{7}, 3000)
	base := time.Now().Add(-time.Hour)
	for i := range 3 {
		k := Key{FileID: int64(i + 1), Px: 64}
		if err := c.Put(k, picture); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i) * time.Minute) // put in order 1, 2, 3
		if err := os.Chtimes(filepath.Join(c.Dir, k.name()), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := c.Get(Key{FileID: 1, Px: 64}); !ok { // 1 is used now: 2 is the oldest
		t.Fatal("picture 1 not kept")
	}
	if err := c.Put(Key{FileID: 4, Px: 64}, picture); err != nil { // 12,000 bytes: over the cap
		t.Fatal(err)
	}
	for id, want := range map[int64]bool{1: true, 2: false, 3: false, 4: true} {
		if _, ok := c.Get(Key{FileID: id, Px: 64}); ok != want {
			t.Errorf("picture %d kept: %v, want %v", id, ok, want)
		}
	}
	if _, ok := c.Get(Key{FileID: 1, Px: 128}); ok {
		t.Error("a picture of another size was taken for this one")
	}
}

// An image whose header declares a picture too large to draw is refused
// before it is decoded.
func TestImageRefusesHugePictures(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 100_000)
	binary.BigEndian.PutUint32(ihdr[4:], 100_000)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	_, err := Image(&b, 64)
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("a 100,000 x 100,000 picture: %v", err)
	}
}
