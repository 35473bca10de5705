package extract

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"testing"
)

// id3Frame builds a v2.3 text frame with the given text encoding byte.
func id3Frame(id string, enc byte, text []byte) []byte {
	var b bytes.Buffer
	b.WriteString(id)
	binary.Write(&b, binary.BigEndian, uint32(len(text)+1))
	b.Write([]byte{0, 0, enc})
	b.Write(text)
	return b.Bytes()
}

func TestMP3Tags(t *testing.T) {
	var frames bytes.Buffer
	frames.Write(id3Frame("TIT2", 0, []byte("Caf\xe9 Kookaburra")))
	frames.Write(id3Frame("TPE1", 1, []byte("\xff\xfeE\x00m\x00u\x00")))
	frames.Write(id3Frame("TALB", 3, []byte("Gum Tree Sessions")))
	n := frames.Len()
	tag := []byte{'I', 'D', '3', 3, 0, 0, byte(n >> 21 & 0x7f), byte(n >> 14 & 0x7f), byte(n >> 7 & 0x7f), byte(n & 0x7f)}
	data := append(append(tag, frames.Bytes()...), bytes.Repeat([]byte{0xff, 0xfb, 0x90, 0x00}, 100)...)
	doc := extractBytes(t, "song.mp3", data, Options{})
	if doc.Format != "audio" || doc.Mime != "audio/mpeg" || doc.Title != "Café Kookaburra" ||
		doc.Meta["artist"] != "Emu" || doc.Meta["album"] != "Gum Tree Sessions" || doc.Warning != "" {
		t.Errorf("%+v", doc)
	}
}

func TestID3v1(t *testing.T) {
	tag := make([]byte, 128)
	copy(tag, "TAG")
	copy(tag[3:], "Old Tune")
	copy(tag[33:], "Old Band")
	data := append(bytes.Repeat([]byte{0xff, 0xfb, 0x90, 0x00}, 100), tag...)
	doc := extractBytes(t, "old.mp3", data, Options{})
	if doc.Title != "Old Tune" || doc.Meta["artist"] != "Old Band" {
		t.Errorf("%+v", doc)
	}
}

func TestImageSize(t *testing.T) {
	img := image.NewPaletted(image.Rect(0, 0, 33, 17), color.Palette{color.Black, color.White})
	var p, g bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&g, img, nil); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"a.png": p.Bytes(), "a.gif": g.Bytes()} {
		doc := extractBytes(t, name, data, Options{})
		if doc.Format != "image" || doc.Meta["width"] != "33" || doc.Meta["height"] != "17" {
			t.Errorf("%s: %+v", name, doc)
		}
	}
}

// mp4Atom is one MP4 box.
func mp4Atom(name string, body ...[]byte) []byte {
	b := bytes.Join(body, nil)
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(b)))
	return append(append(out, name...), b...)
}

// mp4Text is an ilst item holding UTF-8 text.
func mp4Text(name, value string) []byte {
	return mp4Atom(name, mp4Atom("data", []byte{0, 0, 0, 1, 0, 0, 0, 0}, []byte(value)))
}

// TestM4ATags: an M4A's title, artist and album are read, with the moov
// atom after the media data as many encoders write it.
func TestM4ATags(t *testing.T) {
	ilst := mp4Atom("ilst", mp4Text("\xa9nam", "Song of the Quoll"), mp4Text("\xa9ART", "Numbat Quartet"), mp4Text("\xa9alb", "Marsupial Nights"))
	file := bytes.Join([][]byte{
		mp4Atom("ftyp", []byte("M4A \x00\x00\x00\x00M4A mp42isom")),
		mp4Atom("mdat", bytes.Repeat([]byte{0x55}, 300<<10)),
		mp4Atom("moov", mp4Atom("udta", mp4Atom("meta", []byte{0, 0, 0, 0}, ilst))),
	}, nil)
	doc := extractBytes(t, "song.m4a", file, Options{})
	if doc.Format != "audio" || doc.Title != "Song of the Quoll" || doc.Meta["artist"] != "Numbat Quartet" || doc.Meta["album"] != "Marsupial Nights" {
		t.Errorf("%+v", doc)
	}
}
