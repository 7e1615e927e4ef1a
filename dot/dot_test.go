package dot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"image/png"
	"io"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/dot"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/enginetest"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/specs"
)

// Every picture is checked by the real Graphviz: dot -Tjson must accept
// the DOT text without a warning, and the nodes, edges, labels and colours
// are read back from its JSON. scripts/deps.sh installs Graphviz; without
// it these tests fail rather than skip.

// graphviz runs dot -T<format> on src and fails the test on any error or
// warning.
func graphviz(t *testing.T, src, format string) []byte {
	t.Helper()
	prog, err := exec.LookPath("dot")
	if err != nil {
		t.Fatalf("the dot program of Graphviz is not on PATH (sh scripts/deps.sh installs it): %v", err)
	}
	var out, stderr bytes.Buffer
	cmd := exec.Command(prog, "-T"+format)
	cmd.Stdin = strings.NewReader(src)
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dot -T%s: %v\n%s\n%s", format, err, stderr.String(), src)
	}
	return out.Bytes()
}

// drawn is a graph as Graphviz read it.
type drawn struct {
	Label   string `json:"label"`
	Objects []struct {
		ID      int    `json:"_gvid"`
		Name    string `json:"name"`
		Label   string `json:"label"`
		Color   string `json:"color"`
		Tooltip string `json:"tooltip"`
	} `json:"objects"`
	Edges []struct {
		Tail    int    `json:"tail"`
		Head    int    `json:"head"`
		Label   string `json:"label"`
		Color   string `json:"color"`
		Style   string `json:"style"`
		Tooltip string `json:"tooltip"`
	} `json:"edges"`
}

func parse(t *testing.T, src string) *drawn {
	t.Helper()
	return parseAll(t, []string{src})[0]
}

// parseAll reads many graphs with one run of dot, which accepts a
// sequence of graphs and writes one JSON object for each.
func parseAll(t *testing.T, srcs []string) []*drawn {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(graphviz(t, strings.Join(srcs, "\n"), "json")))
	var out []*drawn
	for range srcs {
		var g drawn
		if err := dec.Decode(&g); err != nil {
			t.Fatalf("dot -Tjson output: %v", err)
		}
		out = append(out, &g)
	}
	return out
}

// node returns the name of object id.
func (g *drawn) node(id int) string {
	for _, o := range g.Objects {
		if o.ID == id {
			return o.Name
		}
	}
	return ""
}

// object returns the object named name.
func (g *drawn) object(t *testing.T, name string) (label, tooltip string) {
	t.Helper()
	label, _, tooltip = g.node3(t, name)
	return label, tooltip
}

// node3 returns the label, colour and tooltip of node name.
func (g *drawn) node3(t *testing.T, name string) (label, colour, tooltip string) {
	t.Helper()
	for _, o := range g.Objects {
		if o.Name == name {
			return o.Label, o.Color, o.Tooltip
		}
	}
	t.Fatalf("no node %s", name)
	return "", "", ""
}

var (
	breakTag = regexp.MustCompile(`(?i)<(BR|/?TD|/?TR|/?TABLE)\b[^>]*>`)
	tag      = regexp.MustCompile(`<[^>]*>`)
)

// plain turns an HTML label into plain text, one space between words:
// line breaks and table cells separate words, font tags do not.
func plain(label string) string {
	s := tag.ReplaceAllString(breakTag.ReplaceAllString(label, " "), "")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// tableRows reads the rows of the cells of an HTML label's tables, as
// plain text, skipping rows that hold a nested table.
func tableRows(label string) [][]string {
	var out [][]string
	for _, tr := range regexp.MustCompile(`(?s)<TR>(.*?)</TR>`).FindAllStringSubmatch(label, -1) {
		var row []string
		for _, td := range regexp.MustCompile(`(?s)<TD[^>]*>(.*?)</TD>`).FindAllStringSubmatch(tr[1], -1) {
			row = append(row, plain(td[1]))
		}
		out = append(out, row)
	}
	return out
}

func load(t *testing.T, name string, src []byte) *gsst.System {
	t.Helper()
	sys, err := gsst.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func certify(t *testing.T, sys *gsst.System) *detect.Report {
	t.Helper()
	rep, err := detect.Certify(context.Background(), sys, z3.New())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

var verdictColour = map[detect.Verdict]string{
	detect.Symmetric: "#57606a",
	detect.Certified: "#1a7f37",
	detect.Violated:  "#cf222e",
	detect.Unknown:   "#9a6700",
}

// checkSkeleton reads a skeleton back from Graphviz and compares it with
// the system: a node per state, exactly the edges of wantEdges (an edge
// per transition with its guards, coloured by rep's verdicts when rep is
// given; the initial arrows, broadcast transfers and rendezvous parts).
func checkSkeleton(t *testing.T, sys *gsst.System, rep *detect.Report, src string, full bool) {
	t.Helper()
	checkSkeletonDrawn(t, sys, rep, parse(t, src), full)
}

func checkSkeletonDrawn(t *testing.T, sys *gsst.System, rep *detect.Report, g *drawn, full bool) {
	t.Helper()
	for s, name := range sys.States {
		if label, _ := g.object(t, fmt.Sprintf("s%d", s)); label != name {
			t.Errorf("node s%d has label %q, want %q", s, label, name)
		}
	}
	edges := map[[2]string]int{} // the edges of local transitions
	got := map[string]int{}
	for i, e := range g.Edges {
		k := edgeKey(g, i)
		got[k]++
		if !strings.Contains(k, "(") {
			edges[[2]string{g.node(e.Tail), g.node(e.Head)}] = i
		}
	}
	want := wantEdges(sys)
	if n := sumCounts(want); len(g.Edges) != n {
		t.Errorf("%d edges, want %d", len(g.Edges), n)
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("edge %s drawn %d times, want %d", k, got[k], want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if want[k] == 0 {
			t.Errorf("edge %s drawn %d times, want none", k, got[k])
		}
	}
	for i, tr := range sys.Transitions {
		k, ok := edges[[2]string{fmt.Sprintf("s%d", tr.From), fmt.Sprintf("s%d", tr.To)}]
		if !ok {
			t.Errorf("no edge for %s", sys.TransitionName(&tr))
			continue
		}
		e := g.Edges[k]
		label := plain(e.Label)
		tip := strings.ReplaceAll(e.Tooltip, `\n`, "\n")
		for _, blk := range tr.Blocks {
			if blk.Text == "" {
				continue
			}
			// The tooltip holds every guard whole; the label too, unless
			// abbreviated, which the title then says.
			if !strings.Contains(tip, blk.Text) && len(tip) < 4000 {
				t.Errorf("%s: tooltip %q lacks guard %q", sys.TransitionName(&tr), tip, blk.Text)
			}
			if full && !strings.Contains(strings.ReplaceAll(label, " ", ""), strings.ReplaceAll(blk.Text, " ", "")) {
				t.Errorf("%s: label %q lacks guard %q", sys.TransitionName(&tr), label, blk.Text)
			}
		}
		if rep == nil {
			continue
		}
		v := rep.Transitions[i].Verdict
		if e.Color != verdictColour[v] {
			t.Errorf("%s: colour %s, verdict %s", sys.TransitionName(&tr), e.Color, v)
		}
		if !strings.Contains(tip, v.String()) {
			t.Errorf("%s: tooltip %q does not name verdict %s", sys.TransitionName(&tr), tip, v)
		}
		if w := rep.Transitions[i].Witness; v == detect.Violated {
			checkWitness(t, sys, &tr, w, e.Label)
		}
	}
	if rep != nil {
		checkStepVerdicts(t, rep, g)
	}
	abbreviated := strings.Contains(plain(g.Label), "abbreviated")
	if full && abbreviated {
		t.Error("--full picture says it is abbreviated")
	}
}

// checkStepVerdicts checks the boxes of the rendezvous and environment
// steps against their verdicts in rep (colour, the verdict named in the
// tooltip, a violated one's witness in the label) and the title's count
// of violated items against every item of rep, not only the transitions.
func checkStepVerdicts(t *testing.T, rep *detect.Report, g *drawn) {
	t.Helper()
	boxes := map[string]detect.TransitionResult{}
	for r, res := range rep.Rendezvous {
		boxes[fmt.Sprintf("rv%d", r)] = res
	}
	for k, res := range rep.Environment {
		boxes[fmt.Sprintf("env%d", k)] = res
	}
	for _, id := range slices.Sorted(maps.Keys(boxes)) {
		v := boxes[id].Verdict
		label, colour, tip := g.node3(t, id)
		if colour != verdictColour[v] {
			t.Errorf("box %s: colour %s, verdict %s", id, colour, v)
		}
		if !strings.Contains(tip, v.String()) {
			t.Errorf("box %s: tooltip %q does not name verdict %s", id, tip, v)
		}
		if v == detect.Violated && boxes[id].Witness != nil && !strings.Contains(plain(label), "witness") {
			t.Errorf("box %s: violated without a witness in its label", id)
		}
	}
	violated := 0
	for _, res := range rep.Results() {
		if res.Verdict == detect.Violated {
			violated++
		}
	}
	if want := fmt.Sprintf("%d of %d %s violated", violated, len(rep.Results()), rep.Noun(2)); violated > 0 && !strings.Contains(plain(g.Label), want) {
		t.Errorf("title %q does not say %q", plain(g.Label), want)
	}
}

// checkWitness reads the two tables of a witness back from an edge label.
func checkWitness(t *testing.T, sys *gsst.System, tr *gsst.Transition, w *detect.Witness, label string) {
	t.Helper()
	if !strings.Contains(plain(label), "witness") {
		t.Errorf("%s: violated without a witness in its label", sys.TransitionName(tr))
		return
	}
	want := map[string]bool{}
	for _, conf := range [][][]int{w.Enabled, w.Disabled} {
		for g, row := range conf {
			cells := []string{sys.Groups[g].Name}
			for _, k := range row {
				cells = append(cells, strconv.Itoa(k))
			}
			want[strings.Join(cells, " ")] = true
		}
	}
	got := map[string]bool{}
	for _, row := range tableRows(label) {
		got[strings.Join(row, " ")] = true
	}
	for row := range want {
		if len(sys.Groups) <= 10 && !got[row] {
			t.Errorf("%s: witness row %q not drawn; rows %v", sys.TransitionName(tr), row, got)
		}
	}
}

// wantEdges returns the edges the skeleton of sys must draw, read from
// the system alone, each as a key like edgeKey's and how many times:
// a dotted arrow from the start point to each state holding processes
// initially, an edge per local transition, a dashed edge per broadcast
// transfer (naming its transition and groups), and for each rendezvous
// an edge from each part's source into the rendezvous node and one out
// of it to the part's target (numbered, with the part's groups).
func wantEdges(sys *gsst.System) map[string]int {
	want := map[string]int{}
	for s := range sys.States {
		for _, row := range sys.Init {
			if row[s] > 0 {
				want[fmt.Sprintf("start -> s%d", s)]++
				break
			}
		}
	}
	names := func(groups []int) string {
		var out []string
		for _, g := range groups {
			out = append(out, sys.Groups[g].Name)
		}
		return strings.Join(out, ",")
	}
	for i := range sys.Transitions {
		tr := &sys.Transitions[i]
		want[fmt.Sprintf("s%d -> s%d", tr.From, tr.To)]++
		for _, tf := range tr.Broadcast {
			want[fmt.Sprintf("s%d -> s%d (broadcast at %s; groups %s)", tf.From, tf.To, sys.TransitionName(tr), names(tf.Groups))]++
		}
	}
	for r, rz := range sys.Rendezvous {
		for j, pt := range rz.Parts {
			want[fmt.Sprintf("s%d -> rv%d (part %d; groups %s)", pt.From, r, j+1, names(pt.Groups))]++
			want[fmt.Sprintf("rv%d -> s%d (part %d; groups %s)", r, pt.To, j+1, names(pt.Groups))]++
		}
	}
	return want
}

// edgeKey reads edge i of g back as a key of wantEdges: tail and head,
// and for a dashed (broadcast) edge or an edge of a rendezvous node what
// its label says.
func edgeKey(g *drawn, i int) string {
	e := g.Edges[i]
	tail, head := g.node(e.Tail), g.node(e.Head)
	key := tail + " -> " + head
	label := plain(e.Label)
	groups := func(s string) string { // "[a, b]" -> "a,b"
		s = strings.TrimSpace(s)
		s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
		return strings.ReplaceAll(s, ", ", ",")
	}
	switch {
	case e.Style == "dashed":
		name, rest, ok := strings.Cut(strings.TrimPrefix(label, "at "), ": all others")
		if !ok {
			return key + " (dashed, label " + strconv.Quote(label) + ")"
		}
		return fmt.Sprintf("%s (broadcast at %s; groups %s)", key, name, groups(rest))
	case strings.HasPrefix(tail, "rv") || strings.HasPrefix(head, "rv"):
		num, rest, _ := strings.Cut(label, " ")
		return fmt.Sprintf("%s (part %s; groups %s)", key, num, groups(rest))
	}
	return key
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, k := range m {
		n += k
	}
	return n
}

func TestSkeletonBundled(t *testing.T) {
	// Every skeleton is read back by one run of Graphviz, and every
	// picture with verdicts rendered by one more: a run of dot costs more
	// to start than to lay out one of these.
	type drawing struct {
		name string
		sys  *gsst.System
		rep  *detect.Report
		text string
		full bool
	}
	var all []drawing
	var texts, rendered []string
	for _, name := range specs.List() {
		src, err := specs.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		sys := load(t, name, src)
		rep := certify(t, sys)
		for _, opts := range [][]dot.Option{nil, {dot.Verdicts(rep)}, {dot.Verdicts(rep), dot.Full(), dot.Source("specs/" + name)}} {
			text, err := dot.Skeleton(sys, opts...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var r *detect.Report
			if len(opts) > 0 {
				r = rep
			}
			all = append(all, drawing{name, sys, r, text, len(opts) == 3})
			texts = append(texts, text)
			if len(opts) == 1 {
				rendered = append(rendered, text)
			}
		}
	}
	for i, g := range parseAll(t, texts) {
		d := all[i]
		t.Run(fmt.Sprintf("%s/%d", d.name, i%3), func(t *testing.T) {
			checkSkeletonDrawn(t, d.sys, d.rep, g, d.full)
		})
	}
	checkRendersAll(t, rendered)
}

// checkRenders renders src to SVG and PNG with Graphviz and checks that
// the SVG is well-formed XML with an svg root and the PNG decodes.
func checkRenders(t *testing.T, src string) {
	t.Helper()
	checkRendersAll(t, []string{src})
}

// pngRendered says whether a -short run has rendered a PNG yet: dot
// rasterizes a layout (cairo) at some five times the cost of laying it
// out and writing SVG, a quarter of the CPU time of this package's tests
// (4 of 15 CPU-s), so
// -short renders every picture to SVG and only the first it meets to PNG
// too, which shows that Graphviz rasterizes what vsym writes; the full
// run renders every picture to both.
var pngRendered atomic.Bool

// checkRendersAll checks every source as checkRenders does, with one run
// of Graphviz: dot -O writes the pictures of the graphs of all.gv as
// all.gv.svg, all.gv.2.svg, ... (and .png likewise; under -short, the
// first picture of the run alone, as first.gv.png: pngRendered).
func checkRendersAll(t *testing.T, srcs []string) {
	t.Helper()
	prog, err := exec.LookPath("dot")
	if err != nil {
		t.Fatalf("the dot program of Graphviz is not on PATH (sh scripts/deps.sh installs it): %v", err)
	}
	dir := t.TempDir()
	render := func(name, src string, formats ...string) string {
		t.Helper()
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd := exec.Command(prog, append(formats, "-O", in)...)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Fatalf("dot %s: %v\n%s", strings.Join(formats, " "), err, stderr.String())
		}
		return in
	}
	pngs := len(srcs) // the pictures whose PNG is checked, from the first
	if testing.Short() {
		pngs = 0
		if !pngRendered.Swap(true) {
			pngs = 1
		}
	}
	in, pngIn := "", ""
	if pngs == len(srcs) {
		in = render("all.gv", strings.Join(srcs, "\n"), "-Tsvg", "-Tpng")
		pngIn = in
	} else {
		in = render("all.gv", strings.Join(srcs, "\n"), "-Tsvg")
		if pngs > 0 {
			pngIn = render("first.gv", srcs[0], "-Tpng")
		}
	}
	for k, src := range srcs {
		out := in
		if k > 0 {
			out = fmt.Sprintf("%s.%d", in, k+1)
		}
		svg, err := os.ReadFile(out + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(svg))
		root := ""
		for {
			tok, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("SVG is not XML: %v\n%s", err, src)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("SVG root element %q\n%s", root, src)
		}
		if k >= pngs {
			continue
		}
		out = pngIn
		if k > 0 {
			out = fmt.Sprintf("%s.%d", pngIn, k+1)
		}
		pic, err := os.ReadFile(out + ".png")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(pic))
		if err != nil || cfg.Width < 100 || cfg.Height < 50 {
			t.Errorf("PNG: %v, %dx%d\n%s", err, cfg.Width, cfg.Height, src)
		}
	}
}

func TestSkeletonFamilies(t *testing.T) {
	type member struct {
		name string
		src  func() ([]byte, error)
	}
	members := []member{
		{"grw d=3", func() ([]byte, error) { return specs.GRW(3, 2, 4) }},
		{"grw d=40 m=10", func() ([]byte, error) { return specs.GRW(40, 5, 10) }},
		{"asr r=3", func() ([]byte, error) { return specs.ASR(7, 3, 2) }},
		{"asr r=12", func() ([]byte, error) { return specs.ASR(24, 12, 2) }},
	}
	for _, m := range members {
		t.Run(m.name, func(t *testing.T) {
			src, err := m.src()
			if err != nil {
				t.Fatal(err)
			}
			sys := load(t, m.name, src)
			rep := certify(t, sys)
			short, err := dot.Skeleton(sys, dot.Verdicts(rep))
			if err != nil {
				t.Fatal(err)
			}
			full, err := dot.Skeleton(sys, dot.Verdicts(rep), dot.Full())
			if err != nil {
				t.Fatal(err)
			}
			// Both read back by one run of Graphviz (its start costs
			// more than these layouts).
			read := parseAll(t, []string{short, full})
			gs, fg := read[0], read[1]
			checkSkeletonDrawn(t, sys, rep, gs, false)
			checkSkeletonDrawn(t, sys, rep, fg, true)
			// A family with many groups has guards worth abbreviating,
			// and the picture must say it did.
			big := len(sys.Groups) > 4
			if said := strings.Contains(plain(gs.Label), "Labels abbreviated"); said != big {
				t.Errorf("abbreviation note %v, want %v", said, big)
			}
			if big && !strings.Contains(short, "…") {
				t.Errorf("abbreviated picture elides nothing")
			}
			// Only tooltips, which a browser would not show whole, may be
			// cut in a full picture.
			for _, e := range fg.Edges {
				if strings.Contains(e.Label, "…") {
					t.Errorf("full picture elides something: %s", plain(e.Label))
				}
			}
			if strings.Contains(fg.Label, "…") {
				t.Errorf("full picture elides something in its title: %s", plain(fg.Label))
			}
			checkRenders(t, short)
		})
	}
}

func TestSkeletonRejectsForeignReport(t *testing.T) {
	a := load(t, "a.yaml", []byte("states: [A, B]\ngroups: {p: 1}\ninit: A\ntransitions: [{from: A, to: B}]\n"))
	b := load(t, "b.yaml", []byte("states: [A, B]\ngroups: {p: 1}\ninit: A\ntransitions: [{from: A, to: B}, {from: B, to: A}]\n"))
	if _, err := dot.Skeleton(a, dot.Verdicts(certify(t, b))); err == nil {
		t.Error("a report of another system was accepted")
	}
}

// randomConfig draws small random GSSTs with guards per group, some of
// which break full virtual symmetry, and 18 random properties.
var randomConfig = testsupport.Config{MaxSize: 2, MaxTransitions: 5, Properties: 18}

// TestRandomSystems draws the skeleton and every trace of random small
// systems and reads each back: edge colours must be the verdicts Z3
// gave, and every trace configuration and move must match an independent
// replay of the engine's lifted trace and its counter states.
func TestRandomSystems(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	solver := z3.New()
	systems, traces, violated, folded := 0, 0, 0, 0
	// 100 systems; -short draws the first 50, each kind of picture (a
	// violated verdict, a trace, a folded lasso) still among them.
	n := 100
	if testing.Short() {
		n = 50
	}
	// Pictures are read back in one batch, by one run of dot; checks[i]
	// checks picture all[i].
	var all []string
	var checks []func(*drawn)
	for systems < n {
		sys := testsupport.RandomSystem(rng, randomConfig)
		src := testsupport.Describe(sys)
		systems++
		rep, err := detect.Certify(context.Background(), sys, solver)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict() == detect.Violated {
			violated++
		}
		skeleton, err := dot.Skeleton(sys, dot.Verdicts(rep))
		if err != nil {
			t.Fatal(err)
		}
		pictures := []string{skeleton}
		var drawnTraces []*explore.Trace
		var shorts []string // abbreviated, only rendered

		reports := []*explore.Report{}
		crep, err := checkGroup(t, sys)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, crep)
		if rep.Certified() {
			m, err := counterabs.Build(context.Background(), sys, solver, solver)
			if err != nil {
				t.Fatal(err)
			}
			arep, err := explicit.Engine{}.Check(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, arep)
		}
		for _, r := range reports {
			for i, p := range r.Properties {
				if p.Trace == nil {
					continue
				}
				// In full, checked configuration by configuration.
				text, err := dot.Trace(sys, p.Trace, dot.ForProperty(sys.Properties[i]), dot.Full())
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				pictures = append(pictures, text)
				drawnTraces = append(drawnTraces, p.Trace)
				// Abbreviated, a lifted lasso that goes round the loop
				// more than once draws the first round only.
				short, err := dot.Trace(sys, p.Trace, dot.ForProperty(sys.Properties[i]))
				if err != nil {
					t.Fatalf("%v\n%s", err, src)
				}
				l := p.Trace.Lifted
				if rounds := l.Loop >= 0 && len(l.Steps) > len(p.Trace.States); rounds != strings.Contains(short, "goes round") {
					t.Errorf("lifted lasso of %d steps on a trace of %d states: folded %v\n%s", len(l.Steps), len(p.Trace.States), !rounds, short)
				}
				if rounds := l.Loop >= 0 && len(l.Steps) > len(p.Trace.States); rounds {
					folded++
				}
				shorts = append(shorts, short)
			}
		}
		all = append(all, pictures...)
		checks = append(checks, func(g *drawn) { checkSkeletonDrawn(t, sys, rep, g, false) })
		for _, tr := range drawnTraces {
			checks = append(checks, func(g *drawn) { checkTraceDrawn(t, sys, tr, g) })
		}
		traces += len(drawnTraces)
		all = append(all, shorts...)
		for range shorts {
			checks = append(checks, func(*drawn) {})
		}
	}
	for i, g := range parseAll(t, all) {
		checks[i](g)
	}
	t.Logf("%d random systems (%d not fully virtually symmetric), %d traces drawn, %d with a lifted lasso folded", systems, violated, traces, folded)
	if violated == 0 || traces < n || folded == 0 {
		t.Errorf("too few violations (%d), traces (%d) or folded lassos (%d) to test anything", violated, traces, folded)
	}
}

// replay replays the lifted run of tr on sys (testsupport.Replay, which
// checks every step) and returns its configurations as the state of
// every process of each group, processes of each group placed in state
// order.
func replay(t *testing.T, sys *gsst.System, tr *explore.Trace) [][][]int {
	t.Helper()
	confs, err := testsupport.Replay(sys, enginetest.Trace(tr, enginetest.TotalKey))
	if err != nil {
		t.Fatalf("lifted trace: %v", err)
	}
	owner, _ := testsupport.Processes(sys)
	out := make([][][]int, len(confs))
	for i, c := range confs {
		out[i] = make([][]int, len(sys.Groups))
		for p, s := range c {
			out[i][owner[p]] = append(out[i][owner[p]], s)
		}
	}
	return out
}

// checkTrace reads a trace picture back and compares it with the trace.
func checkTrace(t *testing.T, sys *gsst.System, tr *explore.Trace, src string) {
	t.Helper()
	checkTraceDrawn(t, sys, tr, parse(t, src))
}

func checkTraceDrawn(t *testing.T, sys *gsst.System, tr *explore.Trace, g *drawn) {
	t.Helper()
	l := tr.Lifted
	if l == nil || l.Error != "" {
		t.Fatalf("trace of a certified or concrete model not lifted: %+v", l)
	}
	confs := replay(t, sys, tr)
	n := len(confs)
	if l.Loop >= 0 {
		n-- // the configuration after the last step is the loop's start
		if !slices.EqualFunc(confs[n], confs[l.Loop], slices.Equal) {
			t.Fatalf("lifted lasso does not close")
		}
	}
	for i := 0; i < n; i++ {
		label, _ := g.object(t, fmt.Sprintf("c%d", i))
		rows := tableRows(label)
		// Totals: the counter state of the trace, going round its loop.
		k := i
		if k >= len(tr.States) {
			k = tr.Loop + (k-tr.Loop)%(len(tr.States)-tr.Loop)
		}
		want := []string{"total"}
		for _, c := range tr.States[k].Counters {
			want = append(want, strconv.Itoa(c))
		}
		if !slices.ContainsFunc(rows, func(r []string) bool { return slices.Equal(r, want) }) {
			t.Errorf("configuration %d: no row %v in %v", i, want, rows)
		}
		// Cells: the processes of each group in each state.
		for gi, procs := range confs[i] {
			row := []string{sys.Groups[gi].Name}
			for s := range sys.States {
				var in []string
				for p, at := range procs {
					if at == s {
						in = append(in, strconv.Itoa(p))
					}
				}
				if len(in) == 0 {
					in = []string{"·"}
				}
				row = append(row, strings.Join(in, " "))
			}
			if !slices.ContainsFunc(rows, func(r []string) bool { return slices.Equal(r, row) }) {
				t.Errorf("configuration %d: no row %v in %v", i, row, rows)
			}
		}
	}
	if len(g.Edges) != len(l.Steps) {
		t.Errorf("%d edges for %d steps", len(g.Edges), len(l.Steps))
	}
	for i, st := range l.Steps {
		from, to := fmt.Sprintf("c%d", i), fmt.Sprintf("c%d", i+1)
		if i+1 >= n {
			to = fmt.Sprintf("c%d", l.Loop)
		}
		want := "stutter"
		if !st.Stutter {
			want = fmt.Sprintf("%s[%d]: %s → %s", st.GroupName, st.Process, st.FromName, st.ToName)
		}
		found := false
		for _, e := range g.Edges {
			found = found || (g.node(e.Tail) == from && g.node(e.Head) == to && strings.Contains(plain(e.Label), want))
		}
		if !found {
			t.Errorf("no edge %s -> %s labelled %q", from, to, want)
		}
	}
}

func TestTraceBundled(t *testing.T) {
	src, err := specs.Read("readers-writers-race")
	if err != nil {
		t.Fatal(err)
	}
	sys := load(t, "readers-writers-race.yaml", src)
	rep, err := checkGroup(t, sys)
	if err != nil {
		t.Fatal(err)
	}
	var drew []string
	for i, p := range rep.Properties {
		if p.Trace == nil {
			continue
		}
		text, err := dot.Trace(sys, p.Trace, dot.ForProperty(sys.Properties[i]))
		if err != nil {
			t.Fatal(err)
		}
		checkTrace(t, sys, p.Trace, text)
		checkRenders(t, text)
		drew = append(drew, p.Name)
		title := plain(parse(t, text).Label)
		last, _ := parse(t, text).object(t, fmt.Sprintf("c%d", len(p.Trace.Lifted.Steps)))
		switch p.Name {
		case "mutex":
			// The counterexample ends where two processes are in C, and
			// the picture says #C <= 1 is false there.
			if !strings.Contains(title, "Counterexample") || !strings.Contains(plain(last), "here #C <= 1 is false") {
				t.Errorf("mutex: title %q, last configuration %q", title, plain(last))
			}
		case "reachable":
			if !strings.Contains(title, "Witness") || !strings.Contains(plain(last), "here #C = 1 holds") {
				t.Errorf("reachable: title %q, last configuration %q", title, plain(last))
			}
		}
	}
	if !slices.Equal(drew, []string{"mutex", "reachable"}) {
		t.Errorf("drew traces of %v", drew)
	}
}

// raceTrace returns the bundled readers-writers-race system and the
// counterexample to its property mutex, from the concrete explorer.
func raceTrace(t *testing.T) (*gsst.System, *explore.Trace) {
	t.Helper()
	src, err := specs.Read("readers-writers-race")
	if err != nil {
		t.Fatal(err)
	}
	sys := load(t, "race.yaml", src)
	rep, err := checkGroup(t, sys, explore.Properties("mutex"))
	if err != nil {
		t.Fatal(err)
	}
	return sys, rep.Properties[0].Trace
}

// TestTraceEmpty: there is nothing to draw without a trace.
func TestTraceEmpty(t *testing.T) {
	sys, _ := raceTrace(t)
	for _, tr := range []*explore.Trace{nil, {Loop: -1}} {
		if _, err := dot.Trace(sys, tr); err == nil {
			t.Errorf("empty trace %v drawn", tr)
		}
	}
}

// TestTraceCounters draws a trace without a lifted run (as an engine that
// does not lift would give it): the counter states, with the moves
// inferred from the counters.
func TestTraceCounters(t *testing.T) {
	sys, mutex := raceTrace(t)
	tr := *mutex
	tr.Lifted = nil
	text, err := dot.Trace(sys, &tr)
	if err != nil {
		t.Fatal(err)
	}
	g := parse(t, text)
	if len(g.Edges) != len(tr.States)-1 || !strings.Contains(plain(g.Label), "Drawn on counters") {
		t.Errorf("%d edges for %d states; title %q", len(g.Edges), len(tr.States), g.Label)
	}
	for i, st := range tr.States {
		label, _ := g.object(t, fmt.Sprintf("c%d", i))
		want := []string{"total"}
		for _, c := range st.Counters {
			want = append(want, strconv.Itoa(c))
		}
		if !slices.ContainsFunc(tableRows(label), func(r []string) bool { return slices.Equal(r, want) }) {
			t.Errorf("state %d: no row %v", i, want)
		}
	}
	checkRenders(t, text)
}

// TestTraceElision draws a long witness: abbreviated, the middle
// configurations become one node and the title says so; with Full, every
// configuration is drawn.
func TestTraceElision(t *testing.T) {
	src, err := specs.ASR(15, 15, 1)
	if err != nil {
		t.Fatal(err)
	}
	sys := load(t, "asr.yaml", src)
	trace := &explore.Trace{Kind: explore.Witness, Loop: -1}
	// Every process of group gj takes resource j in turn: N -> Wj -> Cj,
	// then back to N, a run of 45 moves written by hand.
	counters := make([]int, len(sys.States))
	counters[0] = sys.N()
	trace.States = append(trace.States, explore.State{Counters: slices.Clone(counters)})
	lifted := &explore.Lifted{Loop: -1}
	for j := 1; j <= 15; j++ {
		w, c := j, 15+j
		for _, mv := range [][2]int{{0, w}, {w, c}, {c, 0}} {
			counters[mv[0]]--
			counters[mv[1]]++
			trace.States = append(trace.States, explore.State{Counters: slices.Clone(counters)})
			ti := slices.IndexFunc(sys.Transitions, func(t gsst.Transition) bool { return t.From == mv[0] && t.To == mv[1] })
			lifted.Steps = append(lifted.Steps, explore.Step{Transition: ti, Group: j - 1, GroupName: sys.Groups[j-1].Name,
				From: mv[0], To: mv[1], FromName: sys.States[mv[0]], ToName: sys.States[mv[1]]})
		}
	}
	trace.Lifted = lifted
	short, err := dot.Trace(sys, trace)
	if err != nil {
		t.Fatal(err)
	}
	full, err := dot.Trace(sys, trace, dot.Full())
	if err != nil {
		t.Fatal(err)
	}
	// MaxConfigs(7): the first 4 and the last 3 configurations, and one
	// node for the 39 between them.
	seven, err := dot.Trace(sys, trace, dot.MaxConfigs(7))
	if err != nil {
		t.Fatal(err)
	}
	// The three pictures read back by one run of Graphviz.
	read := parseAll(t, []string{short, full, seven})
	g := read[0]
	if !strings.Contains(plain(g.Label), "Abbreviated") || len(g.Objects) > 45 {
		t.Errorf("abbreviated picture: %d nodes, title %q", len(g.Objects), plain(g.Label))
	}
	elided := false
	for _, o := range g.Objects {
		elided = elided || strings.Contains(o.Label, "configurations not drawn")
	}
	if !elided {
		t.Error("no node says which configurations it stands for")
	}
	checkRenders(t, short)
	if g := read[1]; len(g.Objects) != 46 || strings.Contains(plain(g.Label), "Abbreviated") {
		t.Errorf("full picture: %d nodes, want 46", len(g.Objects))
	}
	var names []string
	for _, o := range read[2].Objects {
		names = append(names, o.Name)
	}
	if want := []string{"c0", "c1", "c2", "c3", "c4", "c43", "c44", "c45"}; !slices.Equal(names, want) {
		t.Errorf("MaxConfigs(7) draws %v, want %v", names, want)
	}
	if !strings.Contains(seven, "39 configurations not drawn (4 to 42)") {
		t.Errorf("MaxConfigs(7): no node for configurations 4 to 42:\n%s", seven)
	}
}

func TestFormatOf(t *testing.T) {
	for file, want := range map[string]string{"a.svg": "svg", "b.PNG": "png", "c.pdf": "pdf", "d.dot": "dot", "e.gv": "dot"} {
		if got, ok := dot.FormatOf(file); !ok || got != want {
			t.Errorf("FormatOf(%q) = %q, %v", file, got, ok)
		}
	}
	for _, file := range []string{"a.txt", "b", "c.jpeg"} {
		if _, ok := dot.FormatOf(file); ok {
			t.Errorf("FormatOf(%q) accepted", file)
		}
	}
	if _, err := dot.Render(context.Background(), "digraph{}", "txt"); err == nil {
		t.Error("Render accepted format txt")
	}
	if _, err := dot.Render(context.Background(), "digraph{ a -> }", "svg"); err == nil {
		t.Error("Render accepted a syntax error")
	}
}

// checkGroup explores the group-counter model of sys with the explicit
// engine: the unreduced system with group-sorted states.
func checkGroup(t testing.TB, sys *gsst.System, opts ...explore.Option) (*explore.Report, error) {
	t.Helper()
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		return nil, err
	}
	return explicit.Engine{}.Check(context.Background(), m, opts...)
}
