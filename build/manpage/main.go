// Command manpage writes trove(1) from the CLI's own help: it runs the
// built binary's `help` and each command's `--help`, and turns them into
// roff, so the man page says what the binary says.
//
//	go run ./build/manpage -bin build/bin/trove -version 1.2 > trove.1
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "build/bin/trove", "the trove binary to read the help of")
	version := flag.String("version", "", "version for the page's footer (default: trove version)")
	date := flag.String("date", "", "date for the footer, YYYY-MM-DD (default: $SOURCE_DATE_EPOCH, else today)")
	flag.Parse()
	if err := run(*bin, *version, *date, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "manpage:", err)
		os.Exit(1)
	}
}

func run(bin, version, date string, w io.Writer) error {
	usage, err := helpOf(bin, "help")
	if err != nil {
		return err
	}
	page, err := parseUsage(usage)
	if err != nil {
		return err
	}
	for i, c := range page.Commands {
		out, _ := helpOf(bin, c.Name, "--help") // commands without flags fail here
		page.Commands[i].Flags = parseFlags(out)
	}
	if version == "" {
		v, err := helpOf(bin, "version")
		if err != nil {
			return err
		}
		version = strings.TrimPrefix(strings.TrimSpace(v), "trove ")
	}
	if date == "" {
		date = buildDate()
	}
	_, err = io.WriteString(w, page.roff(version, date))
	return err
}

// helpOf runs the binary in a neutral environment, so defaults read as a
// reader would see them: home is "~" and no TROVE_ or XDG_ variable is set.
func helpOf(bin string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"HOME=~", "PATH=" + os.Getenv("PATH"), "LANG=C"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w", bin, strings.Join(args, " "), err)
	}
	return string(out), nil
}

// buildDate honours SOURCE_DATE_EPOCH, for reproducible packages.
func buildDate() string {
	t := time.Now()
	var sec int64
	if _, err := fmt.Sscan(os.Getenv("SOURCE_DATE_EPOCH"), &sec); err == nil {
		t = time.Unix(sec, 0)
	}
	return t.UTC().Format("2006-01-02")
}
