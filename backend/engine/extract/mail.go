package extract

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

const (
	mailMaxParts   = 1000     // MIME parts read in one message
	mboxMessageMax = 8 << 20  // a longer message is read up to this size
	emlMax         = 64 << 20 // a longer .eml is read up to this size
)

// extractEML reads one message: headers as metadata and title, the body
// (plain text preferred, else HTML made text) and attachment names.
func extractEML(s *source, d *Document) (err error) {
	data, cut, err := s.prefix(emlMax)
	if err != nil {
		return err
	}
	if cut {
		defer func() {
			if err == nil {
				err = warnf("email larger than %s: only its start was read", humanSize(emlMax))
			}
		}()
	}
	m := &mailReader{s: s}
	h, err := m.message(data, 0)
	if h != nil {
		d.Title = decodeHeader(h.Get("Subject"))
		setMeta(d, "from", decodeHeader(h.Get("From")))
		setMeta(d, "to", decodeHeader(h.Get("To")))
		setMeta(d, "date", h.Get("Date"))
	}
	if len(m.attachments) > 0 {
		setMeta(d, "attachments", strings.Join(m.attachments, ", "))
	}
	return err
}

// extractMbox reads every message of a Unix mailbox in turn.
func extractMbox(s *source, d *Document) error {
	r := bufio.NewReaderSize(s.reader(), 64<<10)
	m := &mailReader{s: s}
	var msg bytes.Buffer
	count, prevBlank := 0, true
	tk := tick{ctx: s.ctx}
	flush := func() error {
		if msg.Len() == 0 {
			return nil
		}
		count++
		s.text.nl()
		s.text.WriteString("\n")
		_, err := m.message(msg.Bytes(), 0)
		msg.Reset()
		return err
	}
	for !s.text.full() {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			if prevBlank && bytes.HasPrefix(line, []byte("From ")) {
				if ferr := flush(); ferr != nil {
					return ferr
				}
			} else if msg.Len() < mboxMessageMax {
				msg.Write(unescapeFrom(line))
			}
			prevBlank = len(bytes.TrimRight(line, "\r\n")) == 0
		}
		if err == bufio.ErrBufferFull {
			prevBlank = false
			continue
		}
		if err != nil {
			break
		}
		if err := tk.err(); err != nil {
			return err
		}
	}
	err := flush()
	setMeta(d, "messages", fmt.Sprint(count))
	if len(m.attachments) > 0 {
		setMeta(d, "attachments", cutUTF8(strings.Join(m.attachments, ", "), 500))
	}
	return err
}

func unescapeFrom(line []byte) []byte {
	if t := bytes.TrimLeft(line, ">"); len(t) < len(line) && bytes.HasPrefix(t, []byte("From ")) {
		return line[1:]
	}
	return line
}

type mailReader struct {
	s           *source
	attachments []string
	parts       int
}

// message writes a header block and the body of one message.
func (m *mailReader) message(data []byte, depth int) (mail.Header, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		// Headers that do not parse: the whole thing is still text.
		m.s.text.WriteString(decodeText(data, true))
		return nil, nil
	}
	out := m.s.text
	for _, k := range []string{"Subject", "From", "To", "Date"} {
		if v := decodeHeader(msg.Header.Get(k)); v != "" {
			out.WriteString(k + ": " + v + "\n")
		}
	}
	out.WriteString("\n")
	return msg.Header, m.part(msg.Header, msg.Body, depth)
}

type header interface{ Get(string) string }

// part writes the text of one MIME entity, descending into multiparts.
func (m *mailReader) part(h header, body io.Reader, depth int) error {
	if m.parts++; m.parts > mailMaxParts || depth > 32 {
		return warnf("message has too many or too deeply nested parts: the rest is not indexed")
	}
	if err := m.s.ctx.Err(); err != nil {
		return err
	}
	media, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		media, params = "text/plain", map[string]string{}
	}
	if name := attachmentName(h, params); name != "" {
		m.attachments = append(m.attachments, name)
		return nil
	}
	body = transferDecode(h.Get("Content-Transfer-Encoding"), body)
	switch {
	case strings.HasPrefix(media, "multipart/"):
		return m.multipart(media, params["boundary"], body, depth)
	case media == "message/rfc822":
		data, _ := io.ReadAll(io.LimitReader(body, mboxMessageMax))
		_, err := m.message(data, depth+1)
		return err
	case media == "text/html":
		data, _ := io.ReadAll(io.LimitReader(body, int64(markupBudget(m.s))))
		m.s.text.nl()
		_, err := htmlText(m.s.ctx, strings.NewReader(decodeCharset(params["charset"], data)), m.s.text)
		return err
	case strings.HasPrefix(media, "text/"):
		data, _ := io.ReadAll(io.LimitReader(body, int64(m.s.opt.MaxTextBytes)+4))
		m.s.text.nl()
		m.s.text.WriteString(decodeCharset(params["charset"], data))
	}
	return nil
}

// multipart reads the parts; of alternatives only the plain text is kept
// when there is one, else the last (the richest) one.
func (m *mailReader) multipart(media, boundary string, body io.Reader, depth int) error {
	if boundary == "" {
		return nil
	}
	mr := multipart.NewReader(body, boundary)
	type alt struct {
		h    header
		data []byte
	}
	var alts []alt
	for {
		p, err := mr.NextRawPart()
		if err != nil {
			break
		}
		if media != "multipart/alternative" {
			if err := m.part(p.Header, p, depth+1); err != nil {
				return err
			}
			continue
		}
		data, _ := io.ReadAll(io.LimitReader(p, mboxMessageMax))
		alts = append(alts, alt{p.Header, data})
	}
	if len(alts) == 0 {
		return nil
	}
	pick := alts[len(alts)-1]
	for _, a := range alts {
		if ct, _, _ := mime.ParseMediaType(a.h.Get("Content-Type")); ct == "text/plain" || ct == "" {
			pick = a
			break
		}
	}
	return m.part(pick.h, bytes.NewReader(pick.data), depth+1)
}

func attachmentName(h header, params map[string]string) string {
	disp, dp, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	name := firstNonEmpty(dp["filename"], params["name"])
	if disp == "attachment" || name != "" {
		return firstNonEmpty(decodeHeader(name), "(unnamed)")
	}
	return ""
}

func transferDecode(cte string, body io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, &base64Cleaner{r: body})
	case "quoted-printable":
		return quotedprintable.NewReader(body)
	}
	return body
}

// base64Cleaner drops what mail software wraps base64 in besides line
// breaks (spaces, stray characters), which the decoder would reject.
type base64Cleaner struct{ r io.Reader }

func (c *base64Cleaner) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	j := 0
	for _, b := range p[:n] {
		if isASCIILetter(b) || b >= '0' && b <= '9' || b == '+' || b == '/' || b == '=' {
			p[j] = b
			j++
		}
	}
	return j, err
}

var wordDecoder = &mime.WordDecoder{CharsetReader: func(charset string, r io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, err
	}
	return transform.NewReader(r, enc.NewDecoder()), nil
}}

func decodeHeader(v string) string {
	if v == "" {
		return ""
	}
	if out, err := wordDecoder.DecodeHeader(v); err == nil {
		v = out
	}
	if !utf8.ValidString(v) {
		v = decode1252([]byte(v))
	}
	return strings.TrimSpace(v)
}

// decodeCharset decodes text in a named charset; unknown names and bad
// bytes fall back to the text rules (UTF-8, else Windows-1252).
func decodeCharset(name string, b []byte) string {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "utf-8", "utf8":
		return decodeText(b, true)
	case "us-ascii", "ascii", "iso-8859-1", "latin1", "windows-1252", "cp1252":
		// A declared Western charset is trusted, unless the bytes are UTF-8.
		if utf8.Valid(b) {
			return string(b)
		}
		return decode1252(b)
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return decodeText(b, true)
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return decodeText(b, true)
	}
	return string(out)
}
