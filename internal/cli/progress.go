package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/vsym/vsym/progress"
)

// The progress line: what a long command is doing, on one line of stderr
// redrawn in place, only when stderr is a terminal. The library layers
// report progress.Events through the Func they are given (the line's
// report method); the line keeps the latest and a ticker draws it a few
// times a second, once the command has run for progressDelay, so quick
// commands show nothing. A pipe or a file gets nothing, and stdout is
// never written.

const (
	progressDelay = time.Second            // nothing is drawn before
	progressTick  = 250 * time.Millisecond // redraws at most this often
	progressWidth = 79                     // longer lines are cut, so none wraps
)

// progressLine draws the latest event on a terminal. Its zero value is
// not usable; startProgress and newProgressLine make one. All methods are
// safe for concurrent use: certification reports from its workers.
type progressLine struct {
	mu    sync.Mutex
	out   io.Writer // stderr
	term  bool      // out is a terminal: draw; otherwise do nothing
	now   func() time.Time
	start time.Time // when the command started

	ev    progress.Event
	have  bool
	since time.Time // when ev's phase or item started
	drawn string    // the line on the screen, "" when none

	cmd  *cobra.Command // whose stderr the line took over (startProgress)
	quit chan struct{}  // closed by stop
	over chan struct{}  // closed when the ticker has stopped
}

// newProgressLine returns a line drawing on out when term says out is a
// terminal, reading the time from now.
func newProgressLine(out io.Writer, term bool, now func() time.Time) *progressLine {
	return &progressLine{out: out, term: term, now: now, start: now()}
}

// startProgress starts the progress line of cmd's run on its stderr,
// when that is a terminal: the line then becomes cmd's stderr, so that a
// message printed while it shows clears it first. The caller reports
// through the line's report method, one call per phase, and calls stop
// once the long work is done, before it writes its output (stdout may
// share the terminal), and again, deferred, for the early returns.
func startProgress(cmd *cobra.Command) *progressLine {
	w := cmd.ErrOrStderr()
	p := newProgressLine(w, isTerminal(rawWriter(w)), time.Now)
	if !p.term {
		return p
	}
	p.cmd = cmd
	cmd.SetErr(p)
	p.quit, p.over = make(chan struct{}), make(chan struct{})
	go p.tick(progressTick)
	return p
}

// isTerminal reports whether w is a terminal (isTerminalFile), the
// only place where a line redrawn in place makes sense.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminalFile(f)
}

// tick draws until stop.
func (p *progressLine) tick(every time.Duration) {
	defer close(p.over)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-t.C:
			p.draw()
		}
	}
}

// report takes ev as the latest event; it is a progress.Func.
func (p *progressLine) report(ev progress.Event) {
	if !p.term {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.have || ev.Phase != p.ev.Phase || ev.Item != p.ev.Item || ev.K != p.ev.K {
		p.since = p.now()
	}
	p.ev, p.have = ev, true
}

// phase reports the start of a phase that has nothing more to say (a
// parse, an emission).
func (p *progressLine) phase(ph progress.Phase) { p.report(progress.Event{Phase: ph}) }

// draw writes the latest event over the line, once the command has run
// for progressDelay.
func (p *progressLine) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if !p.term || !p.have || now.Sub(p.start) < progressDelay {
		return
	}
	line := progressText(p.ev, now.Sub(p.since))
	if line == p.drawn {
		return
	}
	fmt.Fprintf(rawWriter(p.out), "\r%s\x1b[K", escapeControls(line))
	p.drawn = line
}

// clear erases the line, if one shows; p.mu is held.
func (p *progressLine) clear() {
	if p.drawn != "" {
		io.WriteString(rawWriter(p.out), "\r\x1b[K")
		p.drawn = ""
	}
}

// Write writes b to stderr on a clean line: it clears the progress line
// first (the next tick draws it again). It makes the line cmd's stderr.
func (p *progressLine) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	return p.out.Write(b)
}

// stop stops the ticker, clears the line and gives cmd its stderr back.
func (p *progressLine) stop() {
	if p.quit != nil {
		close(p.quit)
		<-p.over
		p.quit = nil
	}
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
	if p.cmd != nil {
		p.cmd.SetErr(p.out)
		p.cmd = nil
	}
}

// progressText is the line for ev, in its phase for elapsed:
//
//	vsym: property mutex (2 of 3), bdd, 52,311 BDD nodes, iteration 14, 3s
//
// A line longer than progressWidth shortens the item's name first, so
// that the figures stay.
func progressText(ev progress.Event, elapsed time.Duration) string {
	parts := []string{}
	if ev.Engine != "" {
		parts = append(parts, ev.Engine)
	}
	if ev.States > 0 {
		parts = append(parts, groupDigits(ev.States)+" states")
	}
	if ev.Frontier > 0 {
		parts = append(parts, "frontier "+groupDigits(ev.Frontier))
	}
	if ev.Nodes > 0 {
		parts = append(parts, groupDigits(ev.Nodes)+" BDD nodes")
	}
	if ev.Iterations > 0 {
		parts = append(parts, "iteration "+groupDigits(ev.Iterations))
	}
	if note, _, ok := strings.Cut(ev.Note, ":"); ok {
		// The growth of an unbounded variable, in short: the whole
		// sentence is a warning of its own.
		parts = append(parts, note)
	}
	parts = append(parts, elapsed.Truncate(time.Second).String())
	tail := ", " + strings.Join(parts, ", ")
	if ev.K > 0 {
		tail = fmt.Sprintf(" (%d of %d)", ev.K, ev.N) + tail
	}
	head := "vsym: " + string(ev.Phase)
	item := []rune(ev.Item)
	if over := len([]rune(head+tail)) + 1 + len(item) - progressWidth; over > 0 && len(item) > 0 {
		item = append(item[:max(len(item)-over-3, 1)], []rune("...")...)
	}
	if len(item) > 0 {
		head += " " + string(item)
	}
	if r := []rune(head + tail); len(r) > progressWidth {
		return string(r[:progressWidth-3]) + "..."
	}
	return head + tail
}

// groupDigits writes n, not negative, with a comma between groups of
// three digits.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
