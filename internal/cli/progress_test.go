package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/progress"
	"github.com/vsym/vsym/specs"
)

// progressScript drives a progress line through a scripted run on a
// fake clock: events from every layer, ticks, a message printed while
// the line shows, and the end.
func progressScript(p *progressLine, clock *time.Time) {
	at := func(d time.Duration) { *clock = time.Unix(0, 0).Add(d) }
	ms := time.Millisecond
	at(0)
	p.phase(progress.Parse)
	at(500 * ms)
	p.draw() // before progressDelay: nothing
	for k := 1; k <= 3; k++ {
		at(time.Duration(500+200*k) * ms)
		p.report(progress.Event{Phase: progress.Certify, Engine: "z3", Item: "T -> C", K: k, N: 3})
	}
	at(1250 * ms)
	p.draw()
	p.Write([]byte("vsym: warning: a message while the line shows\n"))
	at(1500 * ms)
	p.draw()
	p.report(progress.Event{Phase: progress.Build, Engine: "z3", Item: "N -> T", K: 1, N: 2})
	at(3200 * ms)
	p.draw()
	p.report(progress.Event{Phase: progress.Reach, Engine: "explicit", States: 1234567, Frontier: 4096})
	at(3450 * ms)
	p.draw()
	p.draw() // the same line: not drawn again
	p.report(progress.Event{Phase: progress.Reach, Engine: "explicit", States: 7685601, Frontier: 1})
	at(5 * time.Second)
	p.draw()
	p.report(progress.Event{Phase: progress.Property, Engine: "bdd", Item: "mutex", K: 2, N: 3, Nodes: 52311, Iterations: 14})
	at(7 * time.Second)
	p.draw()
	p.report(progress.Event{Phase: progress.Proof, Engine: "z3", Item: "a-property-with-a-name-long-enough-to-overflow-the-line", K: 12, N: 12})
	at(75 * time.Second)
	p.draw()
	p.stop()
}

// TestProgressLine compares the bytes a terminal gets for a scripted run
// with testdata/progress.golden (-update rewrites it): "\r" and "\x1b[K"
// redraw the line in place, a message clears it first, and stop clears
// it at the end.
func TestProgressLine(t *testing.T) {
	clock := time.Unix(0, 0)
	var out bytes.Buffer
	p := newProgressLine(&out, true, func() time.Time { return clock })
	progressScript(p, &clock)
	// One redraw per line of the golden file, so a reader sees them.
	got := strings.ReplaceAll(out.String(), "\r", "\\r\n")
	got = strings.ReplaceAll(got, "\x1b[K", "<clear>")
	golden := filepath.Join("testdata", "progress.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := testsupport.FirstDiff(string(want), got); d != "" {
		t.Errorf("progress line differs from %s (-update rewrites it):\n%s", golden, d)
	}
}

// TestProgressNotTerminal: when stderr is not a terminal the same run
// draws nothing, and messages pass through unchanged; startProgress
// leaves such a command's stderr alone.
func TestProgressNotTerminal(t *testing.T) {
	clock := time.Unix(0, 0)
	var out bytes.Buffer
	p := newProgressLine(&out, false, func() time.Time { return clock })
	progressScript(p, &clock)
	if want := "vsym: warning: a message while the line shows\n"; out.String() != want {
		t.Errorf("not a terminal: got %q, want only the message %q", out.String(), want)
	}

	cmd := &cobra.Command{}
	var errb bytes.Buffer
	cmd.SetErr(&errb)
	p = startProgress(cmd)
	if p.term || cmd.ErrOrStderr() != &errb {
		t.Errorf("a buffer taken for a terminal")
	}
	p.report(progress.Event{Phase: progress.Reach, States: 1})
	p.stop()
	if errb.Len() != 0 || cmd.ErrOrStderr() != &errb {
		t.Errorf("stderr not left alone: %q", errb.String())
	}
}

// TestIsTerminal: /dev/null is a character device but no terminal, so
// a run whose stderr goes there draws no progress line; a
// pseudo-terminal is one.
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(null) {
		t.Errorf("%s taken for a terminal", os.DevNull)
	}
	if runtime.GOOS != "linux" {
		return
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to compare with: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty) {
		t.Errorf("a pseudo-terminal (/dev/ptmx) not taken for a terminal")
	}
}

// progressRedraw matches one drawing of the progress line of an
// explicit-engine search.
var progressRedraw = regexp.MustCompile(`\rvsym: reachable states, explicit, ([0-9,]+) states, frontier [0-9,]+, ([0-9]+)s\x1b\[K`)

// TestProgressOnTerminal runs vsym explore under script(1), whose
// pseudo-terminal is its stderr, with stdout sent to a file, on a search
// that --timeout stops after two seconds: the terminal shows the
// progress line, redrawn in place with a growing state count and
// cleared before the final message; stdout gets the same JSON as the
// run without a terminal, whose stderr gets no progress at all.
func TestProgressOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("a two-second search, twice")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) (util-linux) is not installed: no pseudo-terminal to run vsym on")
	}
	work := t.TempDir()
	src, err := specs.GRW(2, 70, 6) // about 30 million states: far more than two seconds
	if err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(work, "grw.yaml")
	if err := os.WriteFile(spec, src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"explore", "--engine", "explicit", "--timeout", "2s", "--output", "json", spec}

	// Without a terminal.
	plainOut, plainErr, code := runProcess(t, work, nil, args)
	if code != ExitUnknown || bytes.ContainsAny(plainErr, "\r\x1b") {
		t.Fatalf("without a terminal: exit %d, stderr %q", code, plainErr)
	}

	// On a terminal: script runs the shell command on a pseudo-terminal
	// and copies what it shows to its own stdout.
	jsonOut := filepath.Join(work, "out.json")
	line := shellQuote(os.Args[0])
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	line += " >" + shellQuote(jsonOut)
	sc := exec.Command(script, "-qfec", line, "/dev/null")
	sc.Dir = work
	sc.Env = append(os.Environ(), "VSYM_RUN_MAIN=1")
	term, err := sc.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == ExitUnknown) {
		t.Fatalf("script: %v\n%s", err, term)
	}
	termOut, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(termOut, plainOut) || !json.Valid(termOut) {
		t.Errorf("stdout on a terminal differs from stdout without one:\n%s\n---\n%s", termOut, plainOut)
	}
	shown := string(term)
	draws := progressRedraw.FindAllStringSubmatch(shown, -1)
	if len(draws) < 2 {
		t.Fatalf("the terminal shows %d progress lines, want several:\n%q", len(draws), shown)
	}
	first, last := draws[0][1], draws[len(draws)-1][1]
	if len(last) < len(first) || len(last) == len(first) && last <= first {
		t.Errorf("the state count does not grow: %s, then %s", first, last)
	}
	// The last drawing is cleared, then the message follows on a clean
	// line (the terminal turns "\n" into "\r\n").
	end := strings.LastIndex(shown, "\x1b[K")
	if !strings.HasPrefix(shown[end-1:], "\r\x1b[Kvsym: "+spec+": unknown: exploration stopped: timeout after 2s") {
		t.Errorf("the line is not cleared before the message:\n%q", shown[max(0, end-200):])
	}
}

// TestProgressConcurrent: reports from many goroutines (certification's
// workers), messages and the ticker's redraws share the line safely
// (run with -race), every message arrives whole on a line of its own,
// and stop leaves the line clear.
func TestProgressConcurrent(t *testing.T) {
	var out bytes.Buffer
	start := time.Now().Add(-time.Hour) // past progressDelay
	p := newProgressLine(&out, true, func() time.Time { return time.Now() })
	p.start = start
	p.quit, p.over = make(chan struct{}), make(chan struct{})
	go p.tick(time.Millisecond)
	done := make(chan struct{})
	for w := 0; w < 8; w++ {
		go func() {
			for k := 1; k <= 500; k++ {
				p.report(progress.Event{Phase: progress.Certify, Engine: "z3", K: k, N: 500})
			}
			done <- struct{}{}
		}()
	}
	for i := 0; i < 20; i++ {
		p.Write([]byte("vsym: a message\n"))
		time.Sleep(time.Millisecond)
	}
	for w := 0; w < 8; w++ {
		<-done
	}
	p.stop()
	s := out.String()
	msg := "vsym: a message\n"
	if n := strings.Count(s, msg); n != 20 {
		t.Errorf("%d messages, want 20", n)
	}
	// Each starts a line: the output's first, after a newline, or after
	// the line was cleared ("\r\x1b[K").
	for rest, at := s, 0; ; {
		i := strings.Index(rest, msg)
		if i < 0 {
			break
		}
		if before := s[:at+i]; before != "" && !strings.HasSuffix(before, "\n") && !strings.HasSuffix(before, "\r\x1b[K") {
			t.Errorf("a message written over the progress line: %q", before[max(0, len(before)-60):])
		}
		at += i + len(msg)
		rest = s[at:]
	}
	if !strings.HasSuffix(s, "\r\x1b[K") && !strings.HasSuffix(s, "vsym: a message\n") {
		t.Errorf("the line is not cleared at the end: %q", s[max(0, len(s)-100):])
	}
}
