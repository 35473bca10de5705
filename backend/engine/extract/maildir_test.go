package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const maildirMessage = `Return-Path: <alice@example.com>
X-Original-To: bob@example.com
Delivered-To: bob@example.com
From: Alice Example <alice@example.com>
To: Bob <bob@example.com>
Subject: Maildir wombat
Date: Tue, 14 Nov 2023 22:13:20 +0000
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b"

--b
Content-Type: text/plain; charset=utf-8

The maildir body mentions quendapudding.
--b
Content-Type: application/pdf; name="plan.pdf"
Content-Disposition: attachment; filename="plan.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQK
--b--
`

func TestMaildir(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"cur/1700000000.M1P2.host:2,S":             maildirMessage,
		"new/1700000001.M5P6.mail.example.md":      maildirMessage, // the host ends like a Markdown file
		"cur/1700000002.M7P8.h,S=1234,W=1300:2,RS": "X-Loop: once\nSubject: only one known header\n\nsecond body with numbatnoodle\n",
		"tmp/1700000003.M9P9.host":                 "not a message at all\n",
		"cur/1700000004.M1P1.host:2,":              maildirMessage[strings.Index(maildirMessage, "From:"):],
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{
		"cur/1700000000.M1P2.host:2,S": "eml", "new/1700000001.M5P6.mail.example.md": "eml",
		"cur/1700000002.M7P8.h,S=1234,W=1300:2,RS": "eml", "tmp/1700000003.M9P9.host": "text",
		"cur/1700000004.M1P1.host:2,": "eml",
	} {
		doc, err := Extract(context.Background(), filepath.Join(root, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if doc.Format != want {
			t.Errorf("%s: format %q, want %q", name, doc.Format, want)
		}
		if want != "eml" || strings.Contains(name, "W=1300") {
			continue
		}
		checkDoc(t, doc, fixture{file: name, format: "eml", title: "Maildir wombat",
			words: []string{"quendapudding"}, absent: []string{"JVBERi0"},
			meta: map[string]string{"from": "Alice Example <alice@example.com>", "attachments": "plan.pdf",
				"date": "Tue, 14 Nov 2023 22:13:20 +0000"}})
	}
}

func TestMaildirName(t *testing.T) {
	for name, want := range map[string]bool{
		"1700000000.M1P2.host:2,S": true, "1700000000.M1P2.host": true, "1700000000.M1P2.host:2,": true,
		"1700000000.M1P2.host:1,x": false, "17000.M1P2.host": false, "1700000000.host": false,
		"notes.md": false, "1700000000..host": false, "1700000000.M1P2.": false,
	} {
		if maildirName(name) != want {
			t.Errorf("%q: %v", name, !want)
		}
	}
}
