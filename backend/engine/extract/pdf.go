package extract

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/ascii85"
	"encoding/hex"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/image/tiff/lzw"
)

// The PDF reader finds objects by scanning for "n g obj" rather than
// trusting the cross-reference table, so damaged and truncated files still
// give the text of the objects that survive. Encrypted files are reported,
// not decrypted.

const (
	pdfMaxPages     = 20000
	pdfDecodeBudget = 128 << 20 // decoded bytes per document, every filter of every stream together
	pdfHeldMax      = 32 << 20  // decoded bytes alive at once per document
	pdfMaxFile      = 128 << 20 // a larger PDF is not read into memory
	pdfFormDepth    = 3
)

// pdfMem is a document's one budget for decoding streams: every filter of
// every stream draws from it. spent bounds the work; held bounds the
// memory, since a stream's decoded bytes are handed back (give) once its
// text is read. A compression bomb of many streams therefore costs at most
// pdfHeldMax of decoded bytes at any moment, however they are spread.
type pdfMem struct {
	spent, held, peak int64
}

// room is how many bytes the next decode may produce.
func (m *pdfMem) room() int64 { return max(0, min(pdfDecodeBudget-m.spent, pdfHeldMax-m.held)) }

func (m *pdfMem) take(n int) {
	m.spent += int64(n)
	m.held += int64(n)
	m.peak = max(m.peak, m.held)
}

// give hands back decoded bytes that are no longer needed.
func (m *pdfMem) give(b []byte) { m.held -= int64(len(b)) }

type pdfFile struct {
	ctx     context.Context
	data    []byte
	offsets map[int]int // object number -> offset just after "obj"
	cache   map[int]any
	objStm  bool // object streams have been unpacked into cache
	mem     pdfMem
	depth   int // nested get calls: a chain of /Length references is bounded
	fonts   map[pdfRef]*pdfFont
	tk      tick
	layout  pdfLayout
	gens    map[int]int // object number -> generation, for decryption keys
	crypt   *pdfCrypt   // nil unless the file is encrypted
	// unmapped counts glyphs shown in fonts that give no text
	unmapped int
	// Kept from stream to stream: a flate reader's tables and window are
	// large, and a page's content buffer serves the next page.
	zr       io.Reader
	zsrc     bytes.Reader
	content  []byte
	operands [pdfFormDepth + 1]pdfOperands // by form depth
}

// pdfKeepContent is the largest page content buffer kept for the next page.
const pdfKeepContent = 1 << 20

func extractPDF(s *source, d *Document) error {
	p, err := openPDF(s)
	if err != nil {
		return err
	}
	return p.extract(s, d)
}

// openPDF reads the whole file: the reader looks objects up anywhere in it.
func openPDF(s *source) (*pdfFile, error) {
	if s.size > pdfMaxFile {
		return nil, warnf("PDF larger than %s: contents not read", humanSize(pdfMaxFile))
	}
	data, _, err := s.prefix(pdfMaxFile)
	if err != nil {
		return nil, err
	}
	return &pdfFile{ctx: s.ctx, data: data, cache: map[int]any{}, fonts: map[pdfRef]*pdfFont{}, tk: tick{ctx: s.ctx}}, nil
}

func (p *pdfFile) extract(s *source, d *Document) error {
	data := p.data
	p.index()
	trailer := p.trailer()
	if trailer["Encrypt"] != nil {
		c, err := p.openCrypt(trailer)
		if err != nil {
			return err
		}
		p.crypt = c
	}
	p.info(trailer, d)
	pages := p.pages(trailer)
	setMeta(d, "pages", strconv.Itoa(len(pages)))
	for i, pg := range pages {
		if s.text.full() {
			break
		}
		if err := p.ctx.Err(); err != nil {
			return err
		}
		before := s.text.len()
		p.pageText(pg, s.text)
		if s.text.len() > before {
			s.pages = s.pages.Add(before, i+1)
		}
		if s.text.len()-before < 4 {
			s.textless = append(s.textless, i+1)
		}
		s.text.nl()
		s.text.WriteString("\n")
	}
	truncated := !bytes.Contains(data[max(0, len(data)-2048):], []byte("%%EOF"))
	switch {
	case len(pages) == 0 && truncated:
		return warning("truncated PDF: no pages could be read")
	case len(pages) == 0:
		return warning("corrupt PDF: no pages could be read")
	case truncated:
		return warning("truncated PDF: only part of the text was indexed")
	case len(s.textless) == len(pages) && p.unmapped > 0:
		return warning("PDF fonts without a map to Unicode: text not readable")
	case len(s.textless) == len(pages) && !s.opt.OCR:
		return errPDFNoTextLayer
	}
	return nil
}

// errPDFNoTextLayer says why a scanned PDF gives no text.
var errPDFNoTextLayer = warning("PDF without a text layer (scanned pages): turn on OCR to read them")

// objHeader finds in w what the regular expression
// (\d{1,10})\s+(\d{1,5})\s+obj\b finds (the leftmost match, its end and
// its groups' bounds, as FindSubmatchIndex gives them) without the cost of
// a regular expression for each of a file's objects. From a given start
// at most one match is possible: every run of digits or spaces must be
// taken whole, as what follows it has to be of the other kind.
func objHeader(w []byte) (m [6]int, ok bool) {
	for s := range w {
		if m, ok = objHeaderAt(w, s); ok {
			return m, true
		}
	}
	return m, false
}

func objHeaderAt(w []byte, s int) (m [6]int, ok bool) {
	digits := func(i, most int) int {
		n := 0
		for i+n < len(w) && isDigit(w[i+n]) {
			n++
		}
		if n > most {
			return 0
		}
		return n
	}
	spaces := func(i int) int {
		n := 0
		for i+n < len(w) && isRegexpSpace(w[i+n]) {
			n++
		}
		return n
	}
	num := digits(s, 10)
	if num == 0 {
		return m, false
	}
	i := s + num
	gap := spaces(i)
	if gap == 0 {
		return m, false
	}
	genAt := i + gap
	gen := digits(genAt, 5)
	if gen == 0 {
		return m, false
	}
	i = genAt + gen
	gap = spaces(i)
	if gap == 0 {
		return m, false
	}
	i += gap
	if !bytes.HasPrefix(w[i:], []byte("obj")) {
		return m, false
	}
	end := i + 3
	if end < len(w) && isWordByte(w[end]) { // \b after the j
		return m, false
	}
	return [6]int{s, end, s, s + num, genAt, genAt + gen}, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isRegexpSpace is \s of Go's regular expressions.
func isRegexpSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isWordByte is \w of Go's regular expressions.
func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// index records where each object starts; later definitions (incremental
// updates) win.
func (p *pdfFile) index() {
	p.offsets, p.gens = map[int]int{}, map[int]int{}
	for off := 0; off < len(p.data); {
		i := bytes.Index(p.data[off:], []byte("obj"))
		if i < 0 {
			break
		}
		at := off + i
		off = at + 3
		if p.tk.err() != nil {
			return
		}
		if at < 2 || !isPDFSpace(p.data[at-1]) || at >= 5 && string(p.data[at-3:at]) == "end" {
			continue
		}
		start := max(0, at-20)
		m, ok := objHeader(p.data[start : at+3])
		if !ok || start+m[1] != at+3 {
			continue
		}
		if m[2] > 0 && !isPDFSpace(p.data[start+m[2]-1]) && !isPDFDelim(p.data[start+m[2]-1]) {
			continue
		}
		num, _ := strconv.Atoi(string(p.data[start+m[2] : start+m[3]]))
		gen, _ := strconv.Atoi(string(p.data[start+m[4] : start+m[5]]))
		p.offsets[num] = at + 3
		if gen != 0 {
			p.gens[num] = gen
		}
	}
}

// get returns object num, parsed once.
func (p *pdfFile) get(num int) any {
	if v, ok := p.cache[num]; ok {
		return v
	}
	off, ok := p.offsets[num]
	if !ok {
		if !p.objStm {
			p.unpackObjStms()
			return p.cache[num]
		}
		return nil
	}
	if p.depth >= 16 {
		return nil
	}
	p.depth++
	defer func() { p.depth-- }()
	p.cache[num] = nil // a self-reference during parsing reads null
	v := p.parseAt(off)
	if p.crypt != nil {
		v = p.decryptObject(v, num)
	}
	p.cache[num] = v
	return v
}

// parseAt parses the object at off, with its stream data if any.
func (p *pdfFile) parseAt(off int) any {
	l := &pdfLexer{b: p.data, pos: off}
	v, _ := l.object(0)
	dict, isDict := v.(pdfDict)
	if !isDict {
		return v
	}
	save := l.pos
	if tok, _ := l.token(); tok != pdfKeyword("stream") {
		l.pos = save
		return dict
	}
	start := l.pos
	if start < len(p.data) && p.data[start] == '\r' {
		start++
	}
	if start < len(p.data) && p.data[start] == '\n' {
		start++
	}
	return &pdfStream{dict: dict, raw: p.data[start:p.streamEnd(dict, start)]}
}

func (p *pdfFile) streamEnd(dict pdfDict, start int) int {
	if n, ok := pdfInt(p.resolve(dict["Length"]), len(p.data)-start); ok {
		end := start + n
		rest := p.data[end:min(len(p.data), end+32)]
		if bytes.Contains(rest, []byte("endstream")) {
			return end
		}
	}
	if i := bytes.Index(p.data[start:], []byte("endstream")); i >= 0 {
		return start + i
	}
	return len(p.data)
}

// decryptObject decrypts a directly stored object's strings, and marks its
// stream for decryption when read; cross-reference streams are never
// encrypted.
func (p *pdfFile) decryptObject(v any, num int) any {
	if st, ok := v.(*pdfStream); ok {
		if st.dict["Type"] == pdfName("XRef") {
			return v
		}
		st.num, st.gen, st.encrypted = num, p.gens[num], true
	}
	return p.crypt.strings(v, num, p.gens[num])
}

// resolve follows references, a bounded number of times.
func (p *pdfFile) resolve(v any) any {
	for i := 0; i < 8; i++ {
		r, ok := v.(pdfRef)
		if !ok {
			return v
		}
		v = p.get(r.num)
	}
	return nil
}

func (p *pdfFile) dict(v any) pdfDict {
	switch x := p.resolve(v).(type) {
	case pdfDict:
		return x
	case *pdfStream:
		return x.dict
	}
	return nil
}

// unpackObjStms parses every object stream once, for files that keep most
// objects compressed.
func (p *pdfFile) unpackObjStms() {
	p.objStm = true
	nums := make([]int, 0, len(p.offsets))
	for num, off := range p.offsets {
		if bytes.Contains(p.data[off:min(len(p.data), off+256)], []byte("/ObjStm")) {
			nums = append(nums, num)
		}
	}
	sort.Ints(nums)
	for _, num := range nums {
		st, ok := p.get(num).(*pdfStream)
		if !ok || st.dict["Type"] != pdfName("ObjStm") {
			continue
		}
		p.unpackObjStm(st)
	}
}

func (p *pdfFile) unpackObjStm(st *pdfStream) {
	data := p.decode(st)
	defer p.mem.give(data) // the objects are copied out of it
	n, ok1 := pdfInt(st.dict["N"], 100000)
	first, ok2 := pdfInt(st.dict["First"], len(data))
	if !ok1 || !ok2 {
		return
	}
	l := &pdfLexer{b: data[:first]}
	for i := 0; i < n; i++ {
		a, _ := l.token()
		b, _ := l.token()
		num, ok1 := pdfInt(a, math.MaxInt32)
		off, ok2 := pdfInt(b, len(data)-first-1)
		if !ok1 || !ok2 {
			return
		}
		if _, direct := p.offsets[num]; direct {
			continue
		}
		if _, seen := p.cache[num]; seen {
			continue
		}
		ol := &pdfLexer{b: data, pos: first + off}
		v, _ := ol.object(0)
		p.cache[num] = v
	}
}

// pdfInt accepts a whole number in [0, most], as offsets and counts must be.
func pdfInt(v any, most int) (int, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f > float64(most) || f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
}

// decode applies the stream's filters; unknown filters give nothing. The
// result is charged to the document's budget: give it back (p.mem.give)
// once read.
func (p *pdfFile) decode(st *pdfStream) []byte { return p.decodeTo(nil, st) }

// decodeTo appends the decoded stream to dst, the last filter writing
// straight into it. Intermediate results of a filter chain are given back
// as soon as the next filter has read them.
func (p *pdfFile) decodeTo(dst []byte, st *pdfStream) []byte {
	var filters []any
	switch f := p.resolve(st.dict["Filter"]).(type) {
	case pdfName:
		filters = []any{f}
	case []any:
		filters = f
	}
	data, charged := st.raw, false // the raw bytes are the file's, not charged
	if st.encrypted && p.crypt != nil {
		data = p.crypt.decrypt(p.crypt.stmMethod, st.num, st.gen, data[:min(int64(len(data)), p.mem.room())])
		p.mem.take(len(data))
		charged = true
	}
	for i, f := range filters {
		var into []byte
		last := i == len(filters)-1
		if last {
			into = dst
		}
		out, err := p.filter(into, data, f)
		got := out[len(into):]
		p.mem.take(len(got))
		if charged {
			p.mem.give(data)
		}
		if err != nil && len(got) == 0 {
			p.mem.give(got)
			return dst
		}
		if last {
			return out
		}
		data, charged = got, true
	}
	n := min(int64(len(data)), p.mem.room())
	p.mem.take(int(n))
	if charged {
		p.mem.give(data)
	}
	return append(dst, data[:n]...)
}

// filter appends data decoded by one filter to dst, within the budget's room.
func (p *pdfFile) filter(dst, data []byte, f any) ([]byte, error) {
	room := p.mem.room()
	var out []byte
	var err error
	switch p.resolve(f) {
	case pdfName("FlateDecode"), pdfName("Fl"):
		zr, err := p.inflater(data)
		if err != nil {
			return dst, err
		}
		return readBounded(dst, zr, room, 4*len(data))
	case pdfName("LZWDecode"), pdfName("LZW"):
		// PDF's LZW is TIFF's: MSB first, code width changing one code early.
		lr := lzw.NewReader(bytes.NewReader(data), lzw.MSB, 8)
		defer lr.Close()
		return readBounded(dst, lr, room, 4*len(data))
	case pdfName("RunLengthDecode"), pdfName("RL"):
		out = decodeRunLength(data, room)
	case pdfName("ASCIIHexDecode"), pdfName("AHx"):
		out, err = hex.DecodeString(strings.Map(keepHex, string(data)))
	case pdfName("ASCII85Decode"), pdfName("A85"):
		out, err = decodeA85(data)
	default:
		return dst, errUnknownFilter
	}
	return append(dst, out[:min(int64(len(out)), room)]...), err
}

var errUnknownFilter = warning("unknown filter")

// inflater returns a zlib reader of data, the document's one reset when
// there is one.
func (p *pdfFile) inflater(data []byte) (io.Reader, error) {
	p.zsrc.Reset(data)
	if p.zr == nil {
		zr, err := zlib.NewReader(&p.zsrc)
		if err != nil {
			return nil, err
		}
		p.zr = zr
		return zr, nil
	}
	return p.zr, p.zr.(zlib.Resetter).Reset(&p.zsrc, nil)
}

func keepHex(r rune) rune {
	if r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' {
		return r
	}
	return -1
}

// decodeRunLength expands PackBits-style runs, at most most bytes.
func decodeRunLength(b []byte, most int64) []byte {
	var out []byte
	for i := 0; i < len(b) && int64(len(out)) < most; {
		n := int(b[i])
		switch {
		case n == 128:
			return out
		case n < 128:
			end := min(len(b), i+1+n+1)
			out = append(out, b[i+1:end]...)
			i = end
		default:
			if i+1 >= len(b) {
				return out
			}
			for k := 0; k < 257-n; k++ {
				out = append(out, b[i+1])
			}
			i += 2
		}
	}
	return out
}

func decodeA85(b []byte) ([]byte, error) {
	b = bytes.TrimPrefix(bytes.TrimSpace(b), []byte("<~"))
	if i := bytes.Index(b, []byte("~>")); i >= 0 {
		b = b[:i]
	}
	out := make([]byte, 4*len(b)/5+4)
	n, _, err := ascii85.Decode(out, b, true)
	return out[:n], err
}

// readBounded appends what r gives to dst, up to limit bytes, growing the
// buffer by half at a time and never past what limit allows: it holds
// about what it read (a bytes.Buffer may hold twice that).
func readBounded(dst []byte, r io.Reader, limit int64, hint int) ([]byte, error) {
	most := int64(len(dst)) + limit
	if free := int64(cap(dst) - len(dst)); free == 0 && limit > 0 {
		dst = grow(dst, min(most, int64(len(dst))+int64(max(hint, 4096))))
	}
	for {
		if int64(len(dst)) >= most {
			return dst, nil
		}
		if len(dst) == cap(dst) {
			dst = grow(dst, min(most, int64(cap(dst))+int64(cap(dst))/2+4096))
		}
		end := min(int64(cap(dst)), most)
		n, err := r.Read(dst[len(dst):end])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

func grow(b []byte, capacity int64) []byte {
	out := make([]byte, len(b), capacity)
	copy(out, b)
	return out
}

// trailer merges the trailer dictionaries, or the dictionaries of
// cross-reference streams, latest first.
func (p *pdfFile) trailer() pdfDict {
	out := pdfDict{}
	merge := func(d pdfDict) {
		for k, v := range d {
			if _, ok := out[k]; !ok {
				out[k] = v
			}
		}
	}
	// Forward searches are much faster than backward ones; "trailer"
	// cannot overlap itself, so this finds every occurrence.
	var at []int
	for off := 0; ; {
		i := bytes.Index(p.data[off:], []byte("trailer"))
		if i < 0 {
			break
		}
		at = append(at, off+i)
		off += i + len("trailer")
	}
	for _, i := range slices.Backward(at) {
		l := &pdfLexer{b: p.data, pos: i + len("trailer")}
		if d, ok := l.object(0); ok {
			if dd, isDict := d.(pdfDict); isDict {
				merge(dd)
			}
		}
	}
	for _, num := range p.sortedNums(true) {
		off := p.offsets[num]
		if bytes.Contains(p.data[off:min(len(p.data), off+512)], []byte("/XRef")) {
			if st, ok := p.get(num).(*pdfStream); ok && st.dict["Type"] == pdfName("XRef") {
				merge(st.dict)
			}
		}
	}
	return out
}

// sortedNums lists object numbers by file offset, latest first if asked.
// Every object starts at its own offset, so the order is total.
func (p *pdfFile) sortedNums(latestFirst bool) []int {
	type numAt struct{ num, off int }
	all := make([]numAt, 0, len(p.offsets))
	for n, off := range p.offsets {
		all = append(all, numAt{n, off})
	}
	slices.SortFunc(all, func(a, b numAt) int {
		if latestFirst {
			return b.off - a.off
		}
		return a.off - b.off
	})
	nums := make([]int, len(all))
	for i, a := range all {
		nums[i] = a.num
	}
	return nums
}

func (p *pdfFile) info(trailer pdfDict, d *Document) {
	info := p.dict(trailer["Info"])
	str := func(k pdfName) string {
		s, _ := p.resolve(info[k]).(string)
		return pdfString(s)
	}
	if t := str("Title"); meaningfulTitle(t) {
		d.Title = t
	}
	setMeta(d, "author", str("Author"))
	setMeta(d, "created", pdfDate(str("CreationDate")))
	setMeta(d, "modified", pdfDate(str("ModDate")))
}

// meaningfulTitle rejects the placeholders many generators write.
func meaningfulTitle(t string) bool {
	low := strings.ToLower(strings.TrimSpace(t))
	if low == "" || low == "untitled" || strings.HasPrefix(low, "microsoft word - ") {
		return false
	}
	for _, ext := range []string{".doc", ".docx", ".pdf", ".tex", ".dvi", ".indd", ".rtf", ".odt", ".ps"} {
		if strings.HasSuffix(low, ext) {
			return false
		}
	}
	return true
}

// pdfDate turns "D:20240131120000+01'00'" into "2024-01-31 12:00:00".
func pdfDate(s string) string {
	s = strings.TrimPrefix(s, "D:")
	if len(s) < 8 || !isDigits(s[:8]) {
		return ""
	}
	out := s[:4] + "-" + s[4:6] + "-" + s[6:8]
	if len(s) >= 14 && isDigits(s[8:14]) {
		out += " " + s[8:10] + ":" + s[10:12] + ":" + s[12:14]
	}
	return out
}

// pdfString decodes a text string: UTF-16 with a BOM, UTF-8 with a BOM, or
// PDFDocEncoding (close enough to Windows-1252 for titles).
func pdfString(s string) string {
	switch {
	case strings.HasPrefix(s, "\xfe\xff"), strings.HasPrefix(s, "\xff\xfe"):
		return utf16Text([]byte(s), true)
	case strings.HasPrefix(s, "\xef\xbb\xbf"):
		return decodeText([]byte(s[3:]), true)
	}
	return decode1252([]byte(s))
}

type pdfPage struct {
	dict      pdfDict
	resources pdfDict
}

// pages walks the page tree from the catalog, with inherited resources;
// without a usable tree, every /Type /Page object is a page.
func (p *pdfFile) pages(trailer pdfDict) []pdfPage {
	root := p.dict(trailer["Root"])
	if root == nil {
		root = p.findCatalog()
	}
	var out []pdfPage
	seen := map[any]bool{}
	var walk func(node any, res pdfDict, depth int)
	walk = func(node any, res pdfDict, depth int) {
		if ref, ok := node.(pdfRef); ok {
			if seen[ref] {
				return
			}
			seen[ref] = true
		}
		d := p.dict(node)
		if d == nil || depth > pdfMaxNesting || len(out) >= pdfMaxPages || p.tk.err() != nil {
			return
		}
		if r := p.dict(d["Resources"]); r != nil {
			res = r
		}
		kids, isArr := p.resolve(d["Kids"]).([]any)
		if d["Type"] == pdfName("Page") || !isArr {
			out = append(out, pdfPage{dict: d, resources: res})
			return
		}
		for _, k := range kids {
			walk(k, res, depth+1)
		}
	}
	if root != nil {
		walk(root["Pages"], nil, 0)
	}
	if len(out) == 0 {
		out = p.loosePages()
	}
	return out
}

func (p *pdfFile) findCatalog() pdfDict {
	for _, num := range p.sortedNums(true) {
		off := p.offsets[num]
		if bytes.Contains(p.data[off:min(len(p.data), off+512)], []byte("/Catalog")) {
			if d := p.dict(p.get(num)); d["Type"] == pdfName("Catalog") {
				return d
			}
		}
	}
	return nil
}

func (p *pdfFile) loosePages() []pdfPage {
	var out []pdfPage
	for _, num := range p.sortedNums(false) {
		off := p.offsets[num]
		if !bytes.Contains(p.data[off:min(len(p.data), off+1024)], []byte("/Page")) {
			continue
		}
		if d := p.dict(p.get(num)); d["Type"] == pdfName("Page") {
			out = append(out, pdfPage{dict: d, resources: p.dict(d["Resources"])})
		}
		if len(out) >= pdfMaxPages {
			break
		}
	}
	return out
}

// pageText runs the page's content streams through the text interpreter.
func (p *pdfFile) pageText(pg pdfPage, out *sink) {
	content := p.content[:0]
	switch c := p.resolve(pg.dict["Contents"]).(type) {
	case *pdfStream:
		content = p.decodeTo(content, c)
	case []any:
		for _, part := range c {
			if st, ok := p.resolve(part).(*pdfStream); ok {
				content = p.decodeTo(content, st)
				if p.mem.room() > 0 {
					content = append(content, '\n')
					p.mem.take(1)
				}
			}
		}
	}
	defer p.mem.give(content)
	ti := &pdfText{p: p, out: out, fonts: map[pdfName]*pdfFont{}, layout: p.layout}
	ti.gs = pdfGState{ctm: pdfIdentity, th: 1}
	ti.run(content, pg.resources, 0)
	ti.layout.write(out)
	p.layout = ti.layout // its buffers serve the next page
	if cap(content) <= pdfKeepContent {
		p.content = content[:0]
	}
}
