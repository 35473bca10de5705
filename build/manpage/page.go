package main

import (
	"fmt"
	"strings"
)

// page is what the help says, in parts.
type page struct {
	Synopsis    string   // "trove [command] [flags]"
	Description []string // paragraphs before the lists
	Commands    []entry
	Environment []entry
	Closing     []string // paragraphs after the lists
}

// entry is a line of a two-column list: "  serve     run the ...".
type entry struct {
	Name, Text string
	Flags      []flagHelp // a command's, from its --help
}

type flagHelp struct {
	Name, Arg, Text string
}

// parseUsage reads `trove help`: a usage line, paragraphs, the lists
// "commands:" and "environment:", and closing paragraphs.
func parseUsage(s string) (page, error) {
	var p page
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "usage: ") {
		return p, fmt.Errorf("help does not start with a usage line: %q", lines[0])
	}
	p.Synopsis = strings.TrimPrefix(lines[0], "usage: ")
	var list *[]entry
	var para []string
	flush := func() {
		if len(para) > 0 {
			if len(p.Commands) == 0 {
				p.Description = append(p.Description, strings.Join(para, " "))
			} else {
				p.Closing = append(p.Closing, strings.Join(para, " "))
			}
			para = nil
		}
	}
	for _, l := range lines[1:] {
		switch {
		case l == "commands:":
			flush()
			list = &p.Commands
		case l == "environment:":
			flush()
			list = &p.Environment
		case list != nil && strings.HasPrefix(l, "  "):
			name, text, _ := strings.Cut(strings.TrimSpace(l), " ")
			*list = append(*list, entry{Name: name, Text: strings.TrimSpace(text)})
		case strings.TrimSpace(l) == "":
			list = nil
			flush()
		default:
			para = append(para, strings.TrimSpace(l))
		}
	}
	flush()
	if len(p.Commands) == 0 {
		return p, fmt.Errorf("help lists no commands")
	}
	return p, nil
}

// parseFlags reads the flag package's defaults listing:
//
//	Usage of trove serve:
//	  -addr string
//	    	listen address (default "127.0.0.1:8765")
func parseFlags(s string) []flagHelp {
	if !strings.HasPrefix(s, "Usage of ") {
		return nil
	}
	var flags []flagHelp
	for _, l := range strings.Split(s, "\n")[1:] {
		switch {
		case strings.HasPrefix(l, "  -"):
			name, arg, _ := strings.Cut(strings.TrimPrefix(l, "  -"), " ")
			flags = append(flags, flagHelp{Name: name, Arg: strings.TrimSpace(arg)})
		case strings.HasPrefix(l, "    \t") && len(flags) > 0:
			f := &flags[len(flags)-1]
			f.Text = strings.TrimSpace(f.Text + " " + strings.TrimSpace(l))
		}
	}
	return flags
}

// roff writes the page in the man(7) macros.
func (p page) roff(version, date string) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	paras := func(ps []string) {
		for _, para := range ps {
			line(".PP")
			line("%s", escape(para))
		}
	}
	line(`.TH TROVE 1 %s %s "User Commands"`, quoteArg(date), quoteArg("trove "+version))
	line(".SH NAME")
	line(`trove, trove\-desktop \- local, private file search`)
	line(".SH SYNOPSIS")
	name, rest, _ := strings.Cut(p.Synopsis, " ")
	line(".B %s", escape(name))
	line("%s", escape(rest))
	line(".SH DESCRIPTION")
	paras(p.Description)
	line(".SH COMMANDS")
	for _, c := range p.Commands {
		line(".TP")
		line(".B %s", escape(c.Name))
		line("%s", escape(c.Text))
	}
	paras(p.Closing)
	for _, c := range p.Commands {
		if len(c.Flags) == 0 {
			continue
		}
		line(".SS %s", quoteArg("trove "+c.Name))
		for _, f := range c.Flags {
			line(".TP")
			if f.Arg != "" {
				line(`.BI \-\-%s " " %s`, escape(f.Name), escape(f.Arg))
			} else {
				line(`.B \-\-%s`, escape(f.Name))
			}
			line("%s", escape(f.Text))
		}
	}
	if len(p.Environment) > 0 {
		line(".SH ENVIRONMENT")
		for _, e := range p.Environment {
			line(".TP")
			line(".B %s", escape(e.Name))
			line("%s", escape(e.Text))
		}
	}
	line(".SH FILES")
	line(".TP")
	line(`.I /usr/lib/systemd/user/trove.service`)
	line(`the headless server as a systemd user unit:`)
	line(`.B systemctl \-\-user enable \-\-now trove.service`)
	line(".TP")
	line(`.I /usr/share/applications/dev.trove.Trove.desktop`)
	line(`the desktop app's launcher, with a Quick Search action`)
	line(".SH SEE ALSO")
	line(`.BR systemctl (1)`)
	return b.String()
}

// escape makes text safe as roff: backslashes, hyphens (so they stay
// hyphens, not dashes), and a leading dot or quote that would read as a
// request.
func escape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func quoteArg(s string) string { return `"` + strings.ReplaceAll(escape(s), `"`, `\(dq`) + `"` }
