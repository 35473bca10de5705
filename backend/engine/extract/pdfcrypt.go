package extract

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rc4"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"hash"
)

// The standard security handler, for the common case of an empty user
// password: files that anyone may open, with permissions that only a
// viewer honours. Revisions 2 to 4 (RC4 and AES-128) and 5 to 6 (AES-256)
// are read; other handlers, or a user password, leave the file unread with
// a warning that says so. The standard library's ciphers do the work: a
// PDF library would parse the whole file a second time.

// pdfCrypt decrypts the strings and streams of one document.
type pdfCrypt struct {
	key       []byte
	rev       int
	strMethod string // "V2" (RC4), "AESV2", "AESV3" or "Identity"
	stmMethod string
}

// pdfPadding pads passwords (here the empty one) to 32 bytes.
var pdfPadding = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

var (
	errPDFPassword = warning("encrypted PDF that needs a password: contents not indexed")
	errPDFHandler  = warning("encrypted PDF with an unsupported security handler: contents not indexed")
)

// openCrypt prepares decryption with the empty user password.
func (p *pdfFile) openCrypt(trailer pdfDict) (*pdfCrypt, error) {
	enc := p.dict(trailer["Encrypt"])
	if enc == nil || enc["Filter"] != pdfName("Standard") {
		return nil, errPDFHandler
	}
	str := func(k pdfName) []byte { s, _ := p.resolve(enc[k]).(string); return []byte(s) }
	num := func(k pdfName) int { f, _ := p.resolve(enc[k]).(float64); return int(f) }
	c := &pdfCrypt{rev: num("R"), strMethod: "V2", stmMethod: "V2"}
	v := num("V")
	if v >= 4 {
		cf := p.dict(enc["CF"])
		method := func(k pdfName) string {
			name, _ := p.resolve(enc[k]).(pdfName)
			if name == "" || name == "Identity" {
				return "Identity"
			}
			m, _ := p.resolve(p.dict(cf[name])["CFM"]).(pdfName)
			if m == "None" {
				return "Identity"
			}
			return string(m)
		}
		c.strMethod, c.stmMethod = method("StrF"), method("StmF")
	}
	for _, m := range []string{c.strMethod, c.stmMethod} {
		if m != "V2" && m != "AESV2" && m != "AESV3" && m != "Identity" {
			return nil, errPDFHandler
		}
	}
	var ok bool
	switch {
	case c.rev >= 2 && c.rev <= 4:
		var id []byte
		if ids, isArr := p.resolve(trailer["ID"]).([]any); isArr && len(ids) > 0 {
			s, _ := p.resolve(ids[0]).(string)
			id = []byte(s)
		}
		length := 40
		if v >= 2 {
			length = num("Length")
			if length == 0 {
				length = 128
			}
		}
		meta := enc["EncryptMetadata"] != false
		c.key, ok = legacyKey(c.rev, length, str("O"), str("U"), uint32(int32(num("P"))), id, meta)
	case c.rev == 5 || c.rev == 6:
		c.key, ok = aes256Key(c.rev, str("U"), str("UE"))
	default:
		return nil, errPDFHandler
	}
	if !ok {
		return nil, errPDFPassword
	}
	return c, nil
}

// legacyKey computes the file key of revisions 2 to 4 (algorithm 2) and
// checks it against /U (algorithms 4 and 5).
func legacyKey(rev, bits int, o, u []byte, perm uint32, id []byte, meta bool) ([]byte, bool) {
	n := bits / 8
	if rev == 2 || n < 5 || n > 16 {
		n = 5
	}
	h := md5.New()
	h.Write(pdfPadding)
	h.Write(o)
	var p [4]byte
	binary.LittleEndian.PutUint32(p[:], perm)
	h.Write(p[:])
	h.Write(id)
	if rev >= 4 && !meta {
		h.Write([]byte{0xff, 0xff, 0xff, 0xff})
	}
	key := h.Sum(nil)
	if rev >= 3 {
		for i := 0; i < 50; i++ {
			sum := md5.Sum(key[:n])
			key = sum[:]
		}
	}
	key = key[:n]
	if rev == 2 {
		return key, len(u) >= 32 && bytes.Equal(rc4Apply(key, pdfPadding), u[:32])
	}
	h = md5.New()
	h.Write(pdfPadding)
	h.Write(id)
	check := rc4Apply(key, h.Sum(nil))
	k := make([]byte, len(key))
	for i := 1; i <= 19; i++ {
		for j := range key {
			k[j] = key[j] ^ byte(i)
		}
		check = rc4Apply(k, check)
	}
	return key, len(u) >= 16 && bytes.Equal(check, u[:16])
}

// aes256Key checks the empty password against /U and unwraps the file key
// from /UE (revisions 5 and 6).
func aes256Key(rev int, u, ue []byte) ([]byte, bool) {
	if len(u) < 48 || len(ue) < 32 {
		return nil, false
	}
	if !bytes.Equal(hardenedHash(rev, u[32:40]), u[:32]) {
		return nil, false
	}
	kek := hardenedHash(rev, u[40:48])
	block, err := aes.NewCipher(kek)
	if err != nil {
		return nil, false
	}
	key := make([]byte, 32)
	cipher.NewCBCDecrypter(block, make([]byte, 16)).CryptBlocks(key, ue[:32])
	return key, true
}

// hardenedHash is algorithm 2.B of ISO 32000-2 (revision 6), or plain
// SHA-256 (revision 5), of the empty password with a salt.
func hardenedHash(rev int, salt []byte) []byte {
	sum := sha256.Sum256(salt)
	k := sum[:]
	if rev == 5 {
		return k
	}
	for round := 0; ; round++ {
		k1 := bytes.Repeat(k, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		var h hash.Hash
		mod := 0
		for _, b := range e[:16] {
			mod += int(b)
		}
		switch mod % 3 {
		case 0:
			h = sha256.New()
		case 1:
			h = sha512.New384()
		default:
			h = sha512.New()
		}
		h.Write(e)
		k = h.Sum(nil)
		if round >= 63 && int(e[len(e)-1]) <= round-31 {
			break
		}
	}
	return k[:32]
}

func rc4Apply(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		return nil
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// objectKey is the key of one object (algorithm 1); AES-256 uses the file key.
func (c *pdfCrypt) objectKey(method string, num, gen int) []byte {
	if method == "AESV3" {
		return c.key
	}
	h := md5.New()
	h.Write(c.key)
	h.Write([]byte{byte(num), byte(num >> 8), byte(num >> 16), byte(gen), byte(gen >> 8)})
	if method == "AESV2" {
		h.Write([]byte("sAlT"))
	}
	return h.Sum(nil)[:min(len(c.key)+5, 16)]
}

// decrypt returns data decrypted with the method's cipher.
func (c *pdfCrypt) decrypt(method string, num, gen int, data []byte) []byte {
	if method == "Identity" {
		return data
	}
	return decryptWith(method, c.objectKey(method, num, gen), data)
}

// decryptWith decrypts with RC4 ("V2") or AES and the object's key.
func decryptWith(method string, key, data []byte) []byte {
	if method == "V2" {
		return rc4Apply(key, data)
	}
	if len(data) < 32 || len(data)%16 != 0 {
		return nil
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil
	}
	out := make([]byte, len(data)-16)
	cipher.NewCBCDecrypter(block, data[:16]).CryptBlocks(out, data[16:])
	if pad := int(out[len(out)-1]); pad >= 1 && pad <= 16 {
		out = out[:len(out)-pad]
	}
	return out
}

// strings decrypts every string of a directly stored object, all with the
// object's key.
func (c *pdfCrypt) strings(v any, num, gen int) any {
	if c.strMethod == "Identity" {
		return v
	}
	return c.stringsWith(v, c.objectKey(c.strMethod, num, gen), 0)
}

func (c *pdfCrypt) stringsWith(v any, key []byte, depth int) any {
	if depth > pdfMaxNesting {
		return v
	}
	switch x := v.(type) {
	case string:
		return string(decryptWith(c.strMethod, key, []byte(x)))
	case pdfDict:
		for k, e := range x {
			x[k] = c.stringsWith(e, key, depth+1)
		}
	case []any:
		for i, e := range x {
			x[i] = c.stringsWith(e, key, depth+1)
		}
	case *pdfStream:
		c.stringsWith(x.dict, key, depth+1)
	}
	return v
}
