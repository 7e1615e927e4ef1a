package dot_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/dot"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestConstructPictures draws random instances with shared variables,
// parameters, per-block updates, broadcasts and rendezvous, and the
// traces the explicit engine finds on their group-counter models, and
// reads every picture back from Graphviz: the skeleton has the box of
// shared variables (each with its initial value), every update under
// its guard, one dashed edge per broadcast transfer from its source to
// its target, and one node per rendezvous joined to each part's source
// and target; every configuration (of instances whose state space is
// finite) of a trace that is a path shows the
// shared values of the engine's state.
func TestConstructPictures(t *testing.T) {
	r := rand.New(rand.NewSource(2124))
	runs := 60
	if testing.Short() {
		runs = 20
	}
	var all []string
	var checks []func(*drawn)
	var transfers, rendezvous, updates, traces, sharedRows, many int
	for i := range runs {
		cfg := testsupport.Small(0, testsupport.AllConstructs)
		if i%3 == 0 {
			// Steps of several processes, for the marks of their movers.
			cfg.Want = testsupport.Rendezvous
		}
		cfg.Properties, cfg.GroupProperties = 3, 3
		in := testsupport.NewExportSpace(testsupport.RandomSystem(r, cfg))
		sys := in.Sys
		src := testsupport.Describe(sys)
		skel, err := dot.Skeleton(sys)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		all = append(all, skel)
		checks = append(checks, func(g *drawn) {
			var text []string // every edge and node label, as plain text
			for _, o := range g.Objects {
				text = append(text, plain(o.Label))
			}
			for _, e := range g.Edges {
				text = append(text, plain(e.Label))
			}
			joined := strings.Join(text, "\n")
			if len(sys.Shared) > 0 {
				label, _ := g.object(t, "shared")
				for j := range sys.Shared {
					v := &sys.Shared[j]
					if want := v.Name + " " + v.TypeText() + " = " + v.ValueName(v.Init); !strings.Contains(plain(label), want) {
						t.Errorf("system %d: the shared box %q has no %q\n%s", i, plain(label), want, src)
					}
				}
			}
			for _, p := range sys.Params {
				if want := fmt.Sprintf("%s = %d", p.Name, p.Value); !strings.Contains(plain(g.Label), want) {
					t.Errorf("system %d: the title %q does not state %s", i, plain(g.Label), want)
				}
			}
			for k := range sys.Transitions {
				tr := &sys.Transitions[k]
				for _, b := range tr.Blocks {
					if b.Update.Text != "" && !strings.Contains(joined, "update: "+b.Update.Text) {
						t.Errorf("system %d: update %q of %s is not drawn\n%s", i, b.Update.Text, sys.TransitionName(tr), src)
					}
					if b.Update.Text != "" {
						updates++
					}
				}
				for _, tf := range tr.Broadcast {
					found := false
					for _, e := range g.Edges {
						found = found || e.Style == "dashed" && g.node(e.Tail) == fmt.Sprintf("s%d", tf.From) && g.node(e.Head) == fmt.Sprintf("s%d", tf.To) &&
							strings.Contains(e.Label, sys.TransitionName(tr))
					}
					if !found {
						t.Errorf("system %d: no dashed edge for the transfer %s -> %s of %s\n%s", i, sys.States[tf.From], sys.States[tf.To], sys.TransitionName(tr), src)
					}
					transfers++
				}
			}
			for k, rz := range sys.Rendezvous {
				node := fmt.Sprintf("rv%d", k)
				in, out := 0, 0
				for _, e := range g.Edges {
					if g.node(e.Head) == node {
						in++
					}
					if g.node(e.Tail) == node {
						out++
					}
				}
				if in != len(rz.Parts) || out != len(rz.Parts) {
					t.Errorf("system %d: rendezvous %d of %d parts has %d edges in and %d out\n%s", i, k+1, len(rz.Parts), in, out, src)
				}
				rendezvous++
			}
		})
		if in.Beyond {
			continue // an unbounded variable grows without end: no finite space to check
		}
		rep, err := checkGroup(t, sys)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		for k, p := range rep.Properties {
			if p.Trace == nil {
				continue
			}
			text, err := dot.Trace(sys, p.Trace, dot.ForProperty(sys.Properties[k]), dot.Full())
			if err != nil {
				t.Fatalf("system %d: %v\n%s", i, err, src)
			}
			all = append(all, text)
			traces++
			tr := p.Trace
			many += checkMoversMarked(t, sys, tr, text)
			checks = append(checks, func(g *drawn) {
				if len(sys.Shared) == 0 || tr.Loop >= 0 || tr.Lifted == nil || tr.Lifted.Error != "" {
					return
				}
				for c, st := range tr.States {
					label, _ := g.object(t, fmt.Sprintf("c%d", c))
					var vals []string
					for j, x := range st.Shared {
						vals = append(vals, sys.Shared[j].Name+"="+sys.Shared[j].ValueName(x))
					}
					if want := "shared: " + strings.Join(vals, " "); !strings.Contains(plain(label), want) {
						t.Errorf("system %d: configuration %d %q does not show %q\n%s", i, c, plain(label), want, src)
					}
					sharedRows++
				}
			})
		}
	}
	for i, g := range parseAll(t, all) {
		checks[i](g)
	}
	t.Logf("%d systems, %d transfers, %d rendezvous, %d updates drawn; %d traces, %d configurations with shared values checked, %d steps of several processes marked", runs, transfers, rendezvous, updates, traces, sharedRows, many)
	if transfers == 0 || rendezvous == 0 || updates == 0 || traces == 0 || sharedRows == 0 || many == 0 {
		t.Errorf("the generator is out of balance")
	}
}

// The bundled lock example: its skeleton and a counterexample render.
func TestConstructsBundled(t *testing.T) {
	sys, err := gsst.Load("../gsst/testdata/constructs/lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	skel, err := dot.Skeleton(sys)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := checkGroup(t, sys, explore.Traces(true))
	if err != nil {
		t.Fatal(err)
	}
	pictures := []string{skel}
	for k, p := range rep.Properties {
		if p.Trace != nil {
			text, err := dot.Trace(sys, p.Trace, dot.ForProperty(sys.Properties[k]))
			if err != nil {
				t.Fatal(err)
			}
			pictures = append(pictures, text)
		}
	}
	if len(pictures) < 2 {
		t.Fatalf("no counterexample of lock.yaml to draw")
	}
	parseAll(t, pictures)
	for _, want := range []string{"shared variables", "update: lock := true; turn := writer", "all others [writer]"} {
		if !strings.Contains(skel, want) {
			t.Errorf("the skeleton of lock.yaml has no %q", want)
		}
	}
}

// checkMoversMarked checks, on the DOT text of a lifted trace drawn in
// full, that every process a step moves (the one that takes it, the
// other parts of a rendezvous, those a broadcast carries along) is
// marked in the configuration the step arrives at: its cell yellow and
// its number bold, and that no other cell is yellow. It returns the
// number of steps of several processes checked.
func checkMoversMarked(t *testing.T, sys *gsst.System, tr *explore.Trace, text string) (many int) {
	t.Helper()
	l := tr.Lifted
	if l == nil || l.Error != "" || (l.Loop >= 0) != (tr.Loop >= 0) {
		return 0
	}
	node := regexp.MustCompile(`(?m)^  c(\d+) \[label=<(.*)>, tooltip=`)
	row := regexp.MustCompile(`<TR><TD ALIGN="LEFT">([^<]*)</TD>(.*?)</TR>`)
	cell := regexp.MustCompile(`<TD( BGCOLOR="#fff8c5")?>(.*?)</TD>`)
	configs := map[string]string{}
	for _, m := range node.FindAllStringSubmatch(text, -1) {
		configs[m[1]] = m[2]
	}
	for k, st := range l.Steps {
		label, ok := configs[fmt.Sprint(k+1)]
		if st.Stutter || !ok {
			continue // a lasso's closing step arrives at a configuration drawn before
		}
		// cells[group][state]: whether yellow, and the content.
		hot := map[[2]int]bool{}
		content := map[[2]int]string{}
		for _, r := range row.FindAllStringSubmatch(label, -1) {
			g := slices.IndexFunc(sys.Groups, func(grp gsst.Group) bool { return grp.Name == r[1] })
			for s, c := range cell.FindAllStringSubmatch(r[2], -1) {
				hot[[2]int{g, s}], content[[2]int{g, s}] = c[1] != "", c[2]
			}
		}
		var movers []explore.Mover
		if st.Environment == nil { // an environment step has no mover of its own
			movers = []explore.Mover{{Group: st.Group, Process: st.Process, To: st.To}}
		}
		movers = append(append(movers, st.Also...), st.Transferred...)
		if len(movers) > 1 {
			many++
		}
		want := map[[2]int]bool{}
		for _, mv := range movers {
			at := [2]int{mv.Group, mv.To}
			want[at] = true
			if !hot[at] || !strings.Contains(" "+content[at]+" ", fmt.Sprintf(" <B>%d</B> ", mv.Process)) {
				t.Errorf("step %d moves %s[%d] to %s: configuration %d marks it not (cell %q, yellow %v)\n%s",
					k, sys.Groups[mv.Group].Name, mv.Process, sys.States[mv.To], k+1, content[at], hot[at], testsupport.Describe(sys))
			}
		}
		for at, yellow := range hot {
			if yellow && !want[at] {
				t.Errorf("step %d: configuration %d marks %s in %s, where no process of the step arrived", k, k+1, sys.Groups[at[0]].Name, sys.States[at[1]])
			}
		}
	}
	return many
}
