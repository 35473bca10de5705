package extract

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
)

// Excel 97-2003 (BIFF8) and Excel 5/95 (BIFF5): the Workbook (or Book)
// stream is a run of records. The globals come first (sheet names, the
// shared string table), then one substream per sheet whose cell records
// (LABELSST, LABEL, NUMBER, RK, MULRK, FORMULA with its cached result)
// are written row by row, as the file orders them.

const (
	xlsBOF        = 0x0809
	xlsEOF        = 0x000A
	xlsFilePass   = 0x002F
	xlsCodePage   = 0x0042
	xlsSheet      = 0x0085
	xlsSST        = 0x00FC
	xlsContinue   = 0x003C
	xlsLabelSST   = 0x00FD
	xlsLabel      = 0x0204
	xlsRString    = 0x00D6
	xlsNumber     = 0x0203
	xlsRK         = 0x027E
	xlsMulRK      = 0x00BD
	xlsFormula    = 0x0006
	xlsString     = 0x0207
	xlsBoolErr    = 0x0205
	xlsMaxStrings = 1 << 22
)

// workbook is the state of one pass over the records.
type workbook struct {
	s          *source
	biff8      bool
	codePage   string
	sheets     []string
	sheet      int // substreams seen, the globals being the first
	sst        []string
	row        int
	cells      int // cells written in the current row
	wantString bool
}

type xlsRecord struct {
	typ  uint16
	data []byte
}

// xlsRecords splits the stream; a record cut short ends the walk.
func xlsRecords(b []byte, yield func(xlsRecord) bool) bool {
	for len(b) >= 4 {
		typ, n := binary.LittleEndian.Uint16(b), int(binary.LittleEndian.Uint16(b[2:]))
		if 4+n > len(b) {
			return false
		}
		if !yield(xlsRecord{typ, b[4 : 4+n]}) {
			return true
		}
		b = b[4+n:]
	}
	return true
}

func extractWorkbook(o *oleFile, d *Document) error {
	name := "Workbook"
	if !o.has(name) {
		name = "Book"
	}
	b, err := o.stream(name)
	if err != nil {
		return err
	}
	return readWorkbook(o.s, b, d)
}

// readWorkbook reads the records of a Workbook or Book stream.
func readWorkbook(s *source, b []byte, d *Document) error {
	wb := &workbook{s: s, codePage: "windows-1252", row: -1}
	var recs []xlsRecord // the SST and its CONTINUE records
	tk := tick{ctx: s.ctx}
	var stop error
	whole := xlsRecords(b, func(r xlsRecord) bool {
		if stop = tk.err(); stop != nil || s.text.full() {
			return false
		}
		if len(recs) > 0 && r.typ != xlsContinue {
			wb.sst = readSST(recs)
			recs = nil
		}
		switch r.typ {
		case xlsFilePass:
			stop = oleEncrypted("Excel workbook")
			return false
		case xlsSST:
			recs = append(recs, r)
		case xlsContinue:
			if len(recs) > 0 {
				recs = append(recs, r)
			}
		default:
			wb.record(r)
		}
		return true
	})
	setMeta(d, "sheets", fmt.Sprint(len(wb.sheets)))
	if stop != nil {
		return stop
	}
	if !whole {
		return warning("Excel workbook cut short: contents not fully indexed")
	}
	return nil
}

func (wb *workbook) record(r xlsRecord) {
	d := r.data
	switch r.typ {
	case xlsBOF:
		wb.bof(d)
	case xlsCodePage:
		if cp := u16at(d, 0); cp != 1200 && cp != 0 {
			wb.codePage = fmt.Sprintf("windows-%d", cp)
		}
	case xlsSheet:
		if len(d) > 6 {
			wb.sheets = append(wb.sheets, wb.shortString(d[6:]))
		}
	case xlsLabelSST:
		if i := int(u32at(d, 6)); i < len(wb.sst) && len(d) >= 10 {
			wb.cell(d, wb.sst[i])
		}
	case xlsLabel, xlsRString:
		if len(d) > 6 {
			wb.cell(d, wb.longString(d[6:]))
		}
	case xlsNumber:
		if len(d) >= 14 {
			wb.cell(d, formatNumber(math.Float64frombits(binary.LittleEndian.Uint64(d[6:]))))
		}
	case xlsRK:
		if len(d) >= 10 {
			wb.cell(d, formatNumber(rkValue(u32at(d, 6))))
		}
	case xlsMulRK:
		wb.mulRK(d)
	case xlsFormula:
		wb.formula(d)
	case xlsString:
		if wb.wantString {
			wb.text(wb.longString(d))
			wb.wantString = false
		}
	case xlsBoolErr:
		if len(d) >= 8 && d[7] == 0 {
			wb.cell(d, map[bool]string{true: "TRUE", false: "FALSE"}[d[6] != 0])
		}
	}
}

// bof starts a substream: the globals set the BIFF version, each sheet
// writes its name.
func (wb *workbook) bof(d []byte) {
	vers := u16at(d, 0)
	if wb.sheet == 0 {
		wb.biff8 = vers == 0x0600
	}
	wb.sheet++
	wb.row, wb.cells = -1, 0
	if i := wb.sheet - 2; i >= 0 && i < len(wb.sheets) {
		wb.s.text.nl()
		wb.s.text.WriteString(wb.sheets[i])
		wb.s.text.WriteString("\n")
	}
}

// cell writes a value, a line per row and a tab between cells.
func (wb *workbook) cell(d []byte, v string) {
	wb.at(int(u16at(d, 0)))
	wb.text(v)
}

func (wb *workbook) at(row int) {
	if row != wb.row {
		wb.s.text.nl()
		wb.row, wb.cells = row, 0
	}
}

func (wb *workbook) text(v string) {
	if v == "" {
		return
	}
	if wb.cells > 0 {
		wb.s.text.WriteString("\t")
	}
	wb.cells++
	wb.s.text.WriteString(v)
}

func (wb *workbook) mulRK(d []byte) {
	if len(d) < 6 {
		return
	}
	wb.at(int(u16at(d, 0)))
	for off := 4; off+6 <= len(d)-2; off += 6 {
		wb.text(formatNumber(rkValue(u32at(d, off+2))))
	}
}

// formula writes a formula's cached result; a string result comes in the
// STRING record that follows.
func (wb *workbook) formula(d []byte) {
	if len(d) < 14 {
		return
	}
	wb.at(int(u16at(d, 0)))
	res := d[6:14]
	if u16at(res, 6) != 0xFFFF {
		wb.text(formatNumber(math.Float64frombits(binary.LittleEndian.Uint64(res))))
		return
	}
	switch res[0] {
	case 0:
		wb.wantString = true
	case 1:
		wb.text(map[bool]string{true: "TRUE", false: "FALSE"}[res[2] != 0])
	}
}

// rkValue decodes an RK number: a 30-bit integer or the high bits of a
// double, optionally divided by 100.
func rkValue(rk uint32) float64 {
	var v float64
	if rk&2 != 0 {
		v = float64(int32(rk) >> 2)
	} else {
		v = math.Float64frombits(uint64(rk&^3) << 32)
	}
	if rk&1 != 0 {
		v /= 100
	}
	return v
}

func formatNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	if math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// shortString reads a sheet name: a one-byte length, then (BIFF8) a flags
// byte and 8-bit or UTF-16 characters.
func (wb *workbook) shortString(b []byte) string {
	if len(b) < 1 {
		return ""
	}
	n := int(b[0])
	if !wb.biff8 {
		return wb.bytes8(b[1:], n)
	}
	if len(b) < 2 {
		return ""
	}
	return xlsChars(b[2:], n, b[1]&1 != 0)
}

// longString reads a two-byte length, then as shortString.
func (wb *workbook) longString(b []byte) string {
	n := int(u16at(b, 0))
	if !wb.biff8 {
		if len(b) < 2 {
			return ""
		}
		return wb.bytes8(b[2:], n)
	}
	if len(b) < 3 {
		return ""
	}
	return xlsChars(b[3:], n, b[2]&1 != 0)
}

func (wb *workbook) bytes8(b []byte, n int) string {
	return decodeCodePage(wb.codePage, b[:min(n, len(b))])
}

// xlsChars reads n characters: UTF-16 when wide, else the low bytes of
// UTF-16 code units (Latin-1).
func xlsChars(b []byte, n int, wide bool) string {
	if !wide {
		b = b[:min(n, len(b))]
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	}
	n = min(n, len(b)/2)
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return string(utf16.Decode(u))
}
