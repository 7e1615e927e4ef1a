package promela

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/specs"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// autoModel builds the counter model that vsym promela --model auto
// writes: the total-counter model when Z3 certifies the system and every
// property reads total counters only, the group-counter model otherwise.
func autoModel(sys *gsst.System) (*counterabs.Model, error) {
	for i := range sys.Properties {
		if counterabs.PropertyLevel(sys, &sys.Properties[i]) == counterabs.GroupLevel {
			return counterabs.BuildGroup(sys)
		}
	}
	s := z3.New()
	cert, err := detect.Certify(context.Background(), sys, s)
	if err != nil {
		return nil, err
	}
	if !cert.Certified() {
		return counterabs.BuildGroup(sys)
	}
	return counterabs.Build(context.Background(), sys, s, s)
}

// namedSystem is a system the golden and Spin tests check.
type namedSystem struct {
	name string
	sys  func() (*gsst.System, error)
}

// family parses a member of a generated family (specs.GRW, specs.ASR).
func family(name string, src []byte, err error) (*gsst.System, error) {
	if err != nil {
		return nil, err
	}
	sys, err := gsst.Parse(name+".yaml", src)
	if sys != nil {
		sys.File = name + ".yaml (generated)"
	}
	return sys, err
}

// knownSystems lists the bundled specs and a few small family members.
func knownSystems(t *testing.T) []namedSystem {
	files, err := filepath.Glob("../specs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled specs found: %v", err)
	}
	var out []namedSystem
	for _, file := range files {
		out = append(out, namedSystem{strings.TrimSuffix(filepath.Base(file), ".yaml"), func() (*gsst.System, error) {
			sys, err := gsst.Load(file)
			if err != nil {
				return nil, err
			}
			if sys.Parametric() {
				// A spec whose sizes are ranges: its smallest instance.
				if sys, err = sys.Smallest(); err != nil {
					return nil, err
				}
			}
			sys.File = "specs/" + filepath.Base(file)
			return sys, nil
		}})
	}
	for _, p := range [][3]int{{2, 2, 4}, {3, 1, 3}} {
		name := fmt.Sprintf("grw-d%d-q%d-m%d", p[0], p[1], p[2])
		out = append(out, namedSystem{name, func() (*gsst.System, error) {
			src, err := specs.GRW(p[0], p[1], p[2])
			return family(name, src, err)
		}})
	}
	for _, p := range [][3]int{{4, 2, 2}, {3, 3, 1}} {
		name := fmt.Sprintf("asr-n%d-r%d-b%d", p[0], p[1], p[2])
		out = append(out, namedSystem{name, func() (*gsst.System, error) {
			src, err := specs.ASR(p[0], p[1], p[2])
			return family(name, src, err)
		}})
	}
	return out
}

// TestKnownSystems emits both models of every bundled spec and of a few
// family members, compares them with the golden files under testdata/
// (go test ./promela -update rewrites them), and checks each with Spin
// against vsym's explicit engine (under -short, its first model and
// those that run a construct through Spin in a kind of model that no
// test before ran: constructs.first; TestSpinRandomSystems compares
// every kind of model with the same engine).
func TestKnownSystems(t *testing.T) {
	requireSpin(t)
	spinned := &constructs{anyKind: true}
	for _, ns := range knownSystems(t) {
		sys, err := ns.sys()
		if err != nil {
			t.Fatal(err)
		}
		m, err := autoModel(sys)
		if err != nil {
			t.Fatal(err)
		}
		opts := []Option{Source(sys.File), Version("test")}
		if m.Level == counterabs.GroupLevel {
			opts = append(opts, Certification("the group-counter model is exact for any system"))
		}
		red, err := Reduced(m, opts...)
		if err != nil {
			t.Fatal(err)
		}
		con, err := Concrete(sys, opts...)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", ns.name+".pml"), red.Text)
		golden(t, filepath.Join("testdata", ns.name+".concrete.pml"), con.Text)

		rv, rn, err := vsymVerdicts(m)
		if err != nil {
			t.Fatal(err)
		}
		gm, err := counterabs.BuildGroup(sys)
		if err != nil {
			t.Fatal(err)
		}
		cv, _, err := vsymVerdicts(gm)
		if err != nil {
			t.Fatal(err)
		}
		st := &crossStats{models: map[string]int{}}
		if spinned.first(m.Level.String(), sys) {
			t.Run(ns.name+"/reduced", func(t *testing.T) {
				t.Parallel()
				checkWithSpin(t, &spinCase{m.Level.String(), red, rv, rn}, st)
			})
		}
		if spinned.first("concrete", sys) {
			t.Run(ns.name+"/concrete", func(t *testing.T) {
				t.Parallel()
				checkWithSpin(t, &spinCase{"concrete", con, cv, concreteStates(sys)}, st)
			})
		}
	}
	t.Logf("Spin ran on %d of the %d models", spinned.ran, 2*len(knownSystems(t)))
}

// constructs picks the models that go through Spin: all of them, or
// under -short a model only when its kind (total, forced, group,
// concrete) has not yet gone through Spin in the package with one of the
// constructs the system uses (shared variables, parameters, broadcast,
// rendezvous, the step constructs, initial sets), or with none of them,
// or when the test has not yet run a model of that kind (with anyKind,
// any model) through Spin. Each construct is what an emitter writes
// differently, and each is then run through Spin once in each kind of
// model that has it, while every test still compares each kind of model
// it draws with its own oracle (the corpus's answers, vsym's explicit
// engine, the oracle on processes) at least once. Combinations of
// constructs go through Spin in the random instances of
// TestSpinConstructs and TestSpinReducedConstructs
// (testsupport.AllConstructs), which run every instance and mark what
// they ran, and every model of the full run. Fairness constraints are
// not in the key: they change no model's text, only which claims are
// exported (none, TestFairnessNotExported). The goldens pin the text of
// every model either way.
type constructs struct {
	anyKind bool            // one model of any kind is the test's least
	kinds   map[string]bool // the kinds of model this test ran through Spin
	ran     int
}

// spunShort is the set of (kind, construct) pairs that a test of the
// package has run through Spin (it is read only under -short). Tests
// run one after another, and each writes it from its own goroutine
// before starting the subtests that run Spin.
var spunShort = map[string]bool{}

// constructKeys returns the (kind, construct) pairs of a model of sys.
func constructKeys(kind string, sys *gsst.System) []string {
	used := testsupport.ConstructsOf(sys)
	if used == 0 {
		return []string{kind + " none"}
	}
	var keys []string
	for b := testsupport.Constructs(1); b <= used; b <<= 1 {
		if used&b != 0 {
			keys = append(keys, kind+" "+b.String())
		}
	}
	return keys
}

// mark records that a model of sys of this kind goes through Spin.
func mark(kind string, sys *gsst.System) {
	for _, k := range constructKeys(kind, sys) {
		spunShort[k] = true
	}
}

func (c *constructs) first(kind string, sys *gsst.System) bool {
	if c.kinds == nil {
		c.kinds = map[string]bool{}
	}
	least := kind
	if c.anyKind {
		least = "any"
	}
	take := !testing.Short() || !c.kinds[least]
	for _, k := range constructKeys(kind, sys) {
		if !spunShort[k] {
			take = true
		}
	}
	if take {
		mark(kind, sys)
		c.kinds[least] = true
		c.ran++
	}
	return take
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./promela -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the emitted text (run go test ./promela -update after checking the change):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  golden:  %q\n  emitted: %q", i+1, x, y)
		}
	}
	return ""
}

// The weak-fairness example: a process of group a toggles between S0 and
// S1 forever, the process of group b can always move from S0 to S2. On
// every path of the system b may be starved (vsym: AF #S2 = 1 fails, EG
// #S2 = 0 holds); under weak fairness b, able to move forever, must move
// (pan -a -f: the opposite verdicts). Without -f pan agrees with vsym.
// fairSpecMany is the same with four processes in b: five processes, more
// than pan -f runs without -DNFAIR=3 (Program.CompileFlags).
const fairSpec = `name: starve
states: [S0, S1, S2]
groups:
  a: 1
  b: 1
init: S0
transitions:
  - {from: S0, to: S1, guard: {a: "true"}}
  - {from: S1, to: S0, guard: {a: "true"}}
  - {from: S0, to: S2, guard: {b: "true"}}
properties:
  served: "AF #S2 = 1"
  starved: "EG #S2 = 0"
  safe: "AG #S2 <= 1"
`

var fairSpecMany = strings.NewReplacer("b: 1", "b: 4", "#S2 = 1", "#S2 >= 1", "#S2 <= 1", "#S2 <= 4").Replace(fairSpec)

func TestWeakFairness(t *testing.T) {
	for _, spec := range []string{fairSpec, fairSpecMany} {
		testWeakFairness(t, spec)
	}
}

func testWeakFairness(t *testing.T, spec string) {
	requireSpin(t)
	sys, err := gsst.Parse("starve.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := Concrete(sys)
	if err != nil {
		t.Fatal(err)
	}
	// The header's compile line is the one buildPan uses.
	gcc := strings.Join(append(append([]string{"gcc -O2"}, prog.CompileFlags()...), "-o pan pan.c"), " ")
	if !strings.Contains(prog.Text, " *   "+gcc+"\n") && !strings.Contains(prog.Text, " *   "+gcc+"   (") {
		t.Errorf("the header does not say %q:\n%s", gcc, prog.Text)
	}
	p, err := buildPan(t, prog)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]bool{ // property: {all paths (vsym), weakly fair paths}
		"served":  {false, true},
		"starved": {true, false},
		"safe":    {true, true},
	}
	gm, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	vsym, _, err := vsymVerdicts(gm)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range prog.Claims {
		w := want[c.Property]
		if vsym[c.Property] != w[0] {
			t.Fatalf("vsym says %s holds=%v, want %v", c.Property, vsym[c.Property], w[0])
		}
		for i, fair := range []bool{false, true} {
			r, err := p.run(c.PanArgs(fair)...)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Holds(r.violated); got != w[i] {
				t.Errorf("%s with pan %v: holds=%v, want %v", c.Property, c.PanArgs(fair), got, w[i])
			}
		}
	}
}

// TestMutationsAreCaught: deliberately broken variants of emitted text
// must fail the Spin cross-check, or the checks above could not fail.
// Each costs a gcc run: -short takes the first of each model's.
func TestMutationsAreCaught(t *testing.T) {
	requireSpin(t)
	sys, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := autoModel(sys)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	grp, err := Reduced(gm)
	if err != nil {
		t.Fatal(err)
	}
	con, err := Concrete(sys)
	if err != nil {
		t.Fatal(err)
	}
	rv, rn, err := vsymVerdicts(m)
	if err != nil {
		t.Fatal(err)
	}
	gv, gn, err := vsymVerdicts(gm)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]*spinCase{
		"total":    {"total", red, rv, rn},
		"group":    {"group", grp, gv, gn},
		"concrete": {"concrete", con, gv, int64(testsupport.Unreduced(sys).Len()) + 1},
	}
	tests := []struct {
		name, model string
		old, new    string
	}{
		{"guard dropped", "total", "#define en_T_C\t(x_T >= 1 && x_C == 0)", "#define en_T_C\t(x_T >= 1)"},
		{"wrong target", "total", "en_T_C -> x_T--; x_C++", "en_T_C -> x_T--; x_N++"},
		{"claim atom", "total", "ltl reachable { [] !(x_C == 1) }", "ltl reachable { [] !(x_C == 2) }"},
		{"property atom", "total", "ltl mutex { [] (x_C <= 1) }", "ltl mutex { [] (x_C < 1) }"},
		{"total not kept in step", "group", "x_C_writer--; x_N_writer++; x_C--; x_N++", "x_C_writer--; x_N_writer++"},
		{"concrete guard dropped", "concrete", "#define g_T_C_writer\t(x_C == 0)", "#define g_T_C_writer\t(true)"},
		{"concrete counter not moved", "concrete", "st = C; c_T_writer--; c_C_writer++; x_T--; x_C++", "st = C; c_T_writer--; c_C_writer++"},
		{"concrete process not started", "concrete", "\t\trun writer(N);\n", ""},
	}
	tried := map[string]bool{}
	for _, tc := range tests {
		if testing.Short() && tried[tc.model] {
			continue
		}
		tried[tc.model] = true
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := *cases[tc.model]
			prog := *c.prog
			if !strings.Contains(prog.Text, tc.old) {
				t.Fatalf("emitted text lacks %q:\n%s", tc.old, prog.Text)
			}
			prog.Text = strings.Replace(prog.Text, tc.old, tc.new, 1)
			c.prog = &prog
			if err := spinAgrees(t, &c, nil); err == nil {
				t.Fatalf("mutation %q -> %q not detected", tc.old, tc.new)
			} else {
				t.Logf("caught: %.200s", err)
			}
		})
	}
}

// TestFairnessNotExported: a spec with fairness constraints gets no ltl
// block, on either model, and every claim says why: an ltl block would
// quantify over every path, where vsym's verdicts range over fair paths.
func TestFairnessNotExported(t *testing.T) {
	src := `name: fair
states: [N, T, C]
groups: {p: 2}
init: N
transitions:
  - {from: N, to: T}
  - {from: T, to: C, guard: "#C = 0"}
  - {from: C, to: N}
properties:
  progress: "AG (#T > 0 -> AF #C > 0)"
  mutex: "AG #C <= 1"
fairness:
  weak: [all]
`
	sys, err := gsst.Parse("fair.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduced(m)
	if err != nil {
		t.Fatal(err)
	}
	con, err := Concrete(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Program{red, con} {
		if len(p.Claims) != 2 {
			t.Fatalf("%d claims, want 2", len(p.Claims))
		}
		for _, c := range p.Claims {
			if c.Exported() || !strings.Contains(c.Skipped, "fairness") || strings.Contains(p.Text, "\nltl ") {
				t.Errorf("claim %s exported under fairness: %+v", c.Property, c)
			}
		}
	}
}
