package enrich

// The Porter (1980) stemming algorithm, the same one SQLite's FTS5 "porter"
// tokenizer applies, so that keyword deduplication agrees with the index.
// It works on lower-case ASCII words; anything else is returned unchanged.

type porter struct {
	b    []byte
	k, j int // b[0..k] is the word; j marks the end of the stem during a test
}

// stem returns the Porter stem of a lower-case word. It does not allocate
// when the stem is a prefix of the word.
func stem(w string) string {
	if len(w) <= 2 || len(w) > 48 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	var buf [48]byte
	p := porter{b: buf[:len(w)], k: len(w) - 1}
	copy(p.b, w)
	p.step1ab()
	if p.k > 0 {
		p.step1c()
		p.step2()
		p.step3()
		p.step4()
		p.step5()
	}
	out := p.b[:p.k+1]
	if string(out) == w[:len(out)] {
		return w[:len(out)]
	}
	return string(out)
}

// cons reports whether b[i] is a consonant.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !p.cons(i-1)
	}
	return true
}

// m measures the number of consonant sequences in b[0..j].
func (p *porter) m() int {
	n, i := 0, 0
	for {
		if i > p.j {
			return n
		}
		if !p.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i > p.j {
				return n
			}
			if p.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i > p.j {
				return n
			}
			if !p.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

func (p *porter) vowelInStem() bool {
	for i := 0; i <= p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

func (p *porter) doublec(j int) bool {
	return j >= 1 && p.b[j] == p.b[j-1] && p.cons(j)
}

// cvc reports whether i-2,i-1,i is consonant-vowel-consonant and the last
// consonant is not w, x or y.
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	switch p.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

func (p *porter) ends(s string) bool {
	n := len(s)
	if n > p.k+1 || string(p.b[p.k-n+1:p.k+1]) != s {
		return false
	}
	p.j = p.k - n
	return true
}

func (p *porter) setTo(s string) {
	p.b = append(p.b[:p.j+1], s...)
	p.k = p.j + len(s)
}

func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setTo(s)
	}
}

func (p *porter) step1ab() {
	if p.b[p.k] == 's' {
		switch {
		case p.ends("sses"):
			p.k -= 2
		case p.ends("ies"):
			p.setTo("i")
		case p.b[p.k-1] != 's':
			p.k--
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.k--
		}
	} else if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.k = p.j
		switch {
		case p.ends("at"):
			p.setTo("ate")
		case p.ends("bl"):
			p.setTo("ble")
		case p.ends("iz"):
			p.setTo("ize")
		case p.doublec(p.k):
			p.k--
			switch p.b[p.k] {
			case 'l', 's', 'z':
				p.k++
			}
		default:
			p.j = p.k
			if p.m() == 1 && p.cvc(p.k) {
				p.setTo("e")
			}
		}
	}
}

func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[p.k] = 'i'
	}
}

func (p *porter) step2() {
	if p.k < 1 {
		return
	}
	switch p.b[p.k-1] {
	case 'a':
		if p.ends("ational") {
			p.r("ate")
		} else if p.ends("tional") {
			p.r("tion")
		}
	case 'c':
		if p.ends("enci") {
			p.r("ence")
		} else if p.ends("anci") {
			p.r("ance")
		}
	case 'e':
		if p.ends("izer") {
			p.r("ize")
		}
	case 'l':
		switch {
		case p.ends("bli"):
			p.r("ble")
		case p.ends("alli"):
			p.r("al")
		case p.ends("entli"):
			p.r("ent")
		case p.ends("eli"):
			p.r("e")
		case p.ends("ousli"):
			p.r("ous")
		}
	case 'o':
		switch {
		case p.ends("ization"):
			p.r("ize")
		case p.ends("ation"):
			p.r("ate")
		case p.ends("ator"):
			p.r("ate")
		}
	case 's':
		switch {
		case p.ends("alism"):
			p.r("al")
		case p.ends("iveness"):
			p.r("ive")
		case p.ends("fulness"):
			p.r("ful")
		case p.ends("ousness"):
			p.r("ous")
		}
	case 't':
		switch {
		case p.ends("aliti"):
			p.r("al")
		case p.ends("iviti"):
			p.r("ive")
		case p.ends("biliti"):
			p.r("ble")
		}
	case 'g':
		if p.ends("logi") {
			p.r("log")
		}
	}
}

func (p *porter) step3() {
	switch p.b[p.k] {
	case 'e':
		switch {
		case p.ends("icate"):
			p.r("ic")
		case p.ends("ative"):
			p.r("")
		case p.ends("alize"):
			p.r("al")
		}
	case 'i':
		if p.ends("iciti") {
			p.r("ic")
		}
	case 'l':
		if p.ends("ical") {
			p.r("ic")
		} else if p.ends("ful") {
			p.r("")
		}
	case 's':
		if p.ends("ness") {
			p.r("")
		}
	}
}

func (p *porter) step4() {
	if p.k < 1 {
		return
	}
	switch p.b[p.k-1] {
	case 'a':
		if !p.ends("al") {
			return
		}
	case 'c':
		if !p.ends("ance") && !p.ends("ence") {
			return
		}
	case 'e':
		if !p.ends("er") {
			return
		}
	case 'i':
		if !p.ends("ic") {
			return
		}
	case 'l':
		if !p.ends("able") && !p.ends("ible") {
			return
		}
	case 'n':
		if !p.ends("ant") && !p.ends("ement") && !p.ends("ment") && !p.ends("ent") {
			return
		}
	case 'o':
		if p.ends("ion") && p.j >= 0 && (p.b[p.j] == 's' || p.b[p.j] == 't') {
			break
		}
		if !p.ends("ou") {
			return
		}
	case 's':
		if !p.ends("ism") {
			return
		}
	case 't':
		if !p.ends("ate") && !p.ends("iti") {
			return
		}
	case 'u':
		if !p.ends("ous") {
			return
		}
	case 'v':
		if !p.ends("ive") {
			return
		}
	case 'z':
		if !p.ends("ize") {
			return
		}
	default:
		return
	}
	if p.m() > 1 {
		p.k = p.j
	}
}

func (p *porter) step5() {
	p.j = p.k
	if p.b[p.k] == 'e' {
		a := p.m()
		if a > 1 || a == 1 && !p.cvc(p.k-1) {
			p.k--
		}
	}
	// As in the reference implementation, the measure here still covers
	// the word as it was before the e was dropped.
	if p.b[p.k] == 'l' && p.doublec(p.k) && p.m() > 1 {
		p.k--
	}
}
