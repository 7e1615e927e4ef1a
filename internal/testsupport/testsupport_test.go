package testsupport

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

func cmpVar(v presburger.Var, op presburger.Op, k int64) presburger.Formula {
	return presburger.Compare(presburger.VarTerm(v), op, presburger.ConstTerm(k))
}

// handGraph is states 0..3 with edges 0 -> 1, 0 -> 2, 1 -> 1, 2 -> 3 and
// 3 dead; variable 0 is the state's number.
func handGraph() *Graph {
	g := newGraph()
	for _, k := range []string{"0", "1", "2", "3"} {
		g.add(k)
	}
	g.Succ[0] = []int{1, 2}
	g.Succ[1] = []int{1}
	g.Succ[2] = []int{3}
	for i := range g.Keys {
		g.close(i, false)
	}
	g.value = func(i int, v presburger.Var) (int64, bool) { return int64(i), v == 0 }
	return g
}

// TestCTLByHand checks every operator on handGraph against answers
// worked out by hand.
func TestCTLByHand(t *testing.T) {
	g := handGraph()
	x := func(op presburger.Op, k int64) ctl.Formula { return ctl.Atom{P: cmpVar(0, op, k)} }
	un := func(op ctl.TempOp, f ctl.Formula) ctl.Formula { return ctl.Unary{Op: op, X: f} }
	tests := []struct {
		name string
		f    ctl.Formula
		want []bool // per state
	}{
		{"EX x=1", un(ctl.EX, x(presburger.Eq, 1)), []bool{true, true, false, false}},
		{"AX x=1", un(ctl.AX, x(presburger.Eq, 1)), []bool{false, true, false, false}},
		{"EF x=3", un(ctl.EF, x(presburger.Eq, 3)), []bool{true, false, true, true}},
		{"AF x=3", un(ctl.AF, x(presburger.Eq, 3)), []bool{false, false, true, true}},
		{"EG x<=1", un(ctl.EG, x(presburger.Le, 1)), []bool{true, true, false, false}},
		{"AG x<=1", un(ctl.AG, x(presburger.Le, 1)), []bool{false, true, false, false}},
		{"E[x<=2 U x=3]", ctl.Until{L: x(presburger.Le, 2), R: x(presburger.Eq, 3)}, []bool{true, false, true, true}},
		{"A[x!=1 U x=3]", ctl.Until{All: true, L: x(presburger.Ne, 1), R: x(presburger.Eq, 3)}, []bool{false, false, true, true}},
		{"AG EX true (stutter)", un(ctl.AG, un(ctl.EX, ctl.Atom{P: presburger.True})), []bool{true, true, true, true}},
		{"!EF x=1 -> AX x=3", ctl.Binary{Op: ctl.Implies, L: ctl.Not{X: un(ctl.EF, x(presburger.Eq, 1))}, R: un(ctl.AX, x(presburger.Eq, 3))}, []bool{true, true, true, true}},
	}
	for _, tt := range tests {
		if got := Sat(g, tt.f); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if g.Deadlocks() != 1 || !g.Dead[3] || !g.Edge(3, 3) {
		t.Errorf("the dead state 3 must stutter: %v", g.Succ)
	}
}

// TestCheckTraceRejects: traces that do not show their verdict are
// refused, or the engines' trace checks could not fail.
func TestCheckTraceRejects(t *testing.T) {
	g := handGraph()
	name := func(presburger.Var) string { return "#X" }
	x3 := ctl.Atom{P: cmpVar(0, presburger.Eq, 3)}
	ef3 := ctl.Unary{Op: ctl.EF, X: x3}
	af3 := ctl.Unary{Op: ctl.AF, X: x3}
	text := func(f ctl.Formula) string { return ctl.Format(f, name) }
	efSeg := func(end int) []Segment {
		return []Segment{{Kind: "path", Start: 0, End: end, Formula: text(ef3), Holds: true, Target: text(x3), TargetHolds: true}}
	}
	afSeg := func(end int) []Segment {
		return []Segment{{Kind: "lasso", Start: 0, End: end, Formula: text(af3), Holds: false, Target: text(x3), TargetHolds: false}}
	}
	check := func(g *Graph, f ctl.Formula, holds bool, tr *Trace) error {
		return CheckEngineTrace(g, f, holds, tr, Subformulas(f, f, text), FromStart)
	}
	if err := check(g, ef3, true, &Trace{Keys: []string{"0", "2", "3"}, Loop: -1, Segments: efSeg(2)}); err != nil {
		t.Fatalf("good EF witness refused: %v", err)
	}
	if err := check(g, af3, false, &Trace{Keys: []string{"0", "1"}, Loop: 1, Segments: afSeg(1)}); err != nil {
		t.Fatalf("good AF counterexample refused: %v", err)
	}
	bad := []struct {
		name  string
		f     ctl.Formula
		holds bool
		tr    *Trace
	}{
		{"no trace where one is promised", ef3, true, nil},
		{"not from the initial state", ef3, true, &Trace{Keys: []string{"2", "3"}, Loop: -1, Segments: efSeg(1)}},
		{"not a transition", ef3, true, &Trace{Keys: []string{"0", "3"}, Loop: -1, Segments: efSeg(1)}},
		{"does not reach the target", ef3, true, &Trace{Keys: []string{"0", "2"}, Loop: -1, Segments: efSeg(1)}},
		{"segments do not cover", ef3, true, &Trace{Keys: []string{"0", "2", "3"}, Loop: -1, Segments: efSeg(1)}},
		{"no segments", ef3, true, &Trace{Keys: []string{"0", "2", "3"}, Loop: -1}},
		{"names no subformula", ef3, true, &Trace{Keys: []string{"0", "2", "3"}, Loop: -1,
			Segments: []Segment{{Kind: "path", End: 2, Formula: "EF #Y = 3", Holds: true, Target: text(x3), TargetHolds: true}}}},
		{"lasso that does not close", af3, false, &Trace{Keys: []string{"0", "1"}, Loop: 0, Segments: afSeg(1)}},
		{"lasso through the target", af3, false, &Trace{Keys: []string{"0", "2", "3"}, Loop: 2, Segments: afSeg(2)}},
		{"bad branch", ef3, true, &Trace{Keys: []string{"0", "2", "3"}, Loop: -1, Segments: efSeg(2),
			Branches: []*Trace{{Keys: []string{"0", "2"}, Loop: -1, Segments: efSeg(1)}}}},
	}
	for _, b := range bad {
		if err := check(g, b.f, b.holds, b.tr); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	// A longer path than the shortest is refused.
	long := newGraph()
	for _, k := range []string{"a", "b", "c"} {
		long.add(k)
	}
	long.Succ[0], long.Succ[1] = []int{1, 2}, []int{2}
	for i := range long.Keys {
		long.close(i, false)
	}
	long.value = func(i int, v presburger.Var) (int64, bool) { return int64(i), true }
	x2 := ctl.Atom{P: cmpVar(0, presburger.Eq, 2)}
	ef2 := ctl.Unary{Op: ctl.EF, X: x2}
	seg := []Segment{{Kind: "path", End: 2, Formula: text(ef2), Holds: true, Target: text(x2), TargetHolds: true}}
	if err := check(long, ef2, true, &Trace{Keys: []string{"a", "b", "c"}, Loop: -1, Segments: seg}); err == nil {
		t.Error("a non-shortest EF witness was accepted")
	}
	seg[0].End = 1
	if err := check(long, ef2, true, &Trace{Keys: []string{"a", "c"}, Loop: -1, Segments: seg}); err != nil {
		t.Errorf("the shortest EF witness was refused: %v", err)
	}
}

// TestReadersWritersByHand checks the oracles on Fig. 1(b) with one
// reader and two writers against counts worked out by hand: the
// reachable total vectors are those with #C <= 1 (2n+1 = 7); the group
// vectors put the reader in N or T with the writers in any of the 5 ways
// with at most one in C, or the reader in C with the writers in N and T
// (3 ways): 13; they stand for 2*8 + 4 = 20 configurations.
func TestReadersWritersByHand(t *testing.T) {
	sys := Parse("rw.yaml", ReadersWritersYAML(1, 2, false)+"properties:\n  mutex: \"AG #C <= 1\"\n  two: \"EF #C = 2\"\n  alone: \"AG (#C[reader] = 1 -> #C[writer] = 0)\"\n")
	b := BruteForce(sys)
	if !b.Certified() || !b.Closed(1) || len(b.Vectors) != 10 {
		t.Errorf("certified %v, %d vectors (want 10 = C(5,2))", b.Certified(), len(b.Vectors))
	}
	sp := Unreduced(sys)
	owner, init := Processes(sys)
	all := Unreduced(sys, Arrangements(owner, init)...)
	if sp.Totals().Len() != 7 || b.Graph().Len() != 7 || sp.Groups().Len() != 13 || sp.Len() != 20 || all.Len() != 20 {
		t.Errorf("totals %d, existential %d, groups %d, unreduced %d, all %d; want 7, 7, 13, 20, 20",
			sp.Totals().Len(), b.Graph().Len(), sp.Groups().Len(), sp.Len(), all.Len())
	}
	want := []bool{true, false, true}
	for i, p := range sys.Properties {
		if got := Holds(sp.Graph, p.Formula); got != want[i] {
			t.Errorf("%s: %v, want %v", p.Name, got, want[i])
		}
		if got := Holds(sp.Groups(), p.Formula); got != want[i] {
			t.Errorf("%s on the group quotient: %v, want %v", p.Name, got, want[i])
		}
	}

	// The broken variant: from totals (2, 1, 0) a writer in T can enter C
	// but the reader alone in T cannot.
	broken := Parse("broken.yaml", ReadersWritersYAML(1, 2, true))
	bb := BruteForce(broken)
	if bb.Closed(1) || !bb.Closed(0) || !bb.Closed(2) || bb.FirstViolated() != 1 {
		t.Errorf("broken: closed %v %v %v", bb.Closed(0), bb.Closed(1), bb.Closed(2))
	}
	if !bb.EnabledAt(1, []int{2, 1, 0}) || bb.EnabledAt(1, []int{1, 1, 1}) {
		t.Error("broken: existential abstraction of T -> C wrong at (2,1,0) or (1,1,1)")
	}
	// The reader enters C only with exactly one writer in T; the writers
	// then cannot leave T, so with the reader in C they are split (N, T)
	// or (T, T): 2 group vectors, 3 configurations. With the reader in N
	// or T, the 5 writer distributions with at most one in C: 10 vectors,
	// 16 configurations. In all 12 and 19.
	bsp := Unreduced(broken)
	owner, init = Processes(broken)
	if n, all := bsp.Groups().Len(), Unreduced(broken, Arrangements(owner, init)...).Len(); n != 12 || all != 19 {
		t.Errorf("broken: %d group vectors and %d configurations, want 12 and 19", n, all)
	}
}

// TestRandomSystemsAreValid draws systems of every style and checks that
// they respect the configured bounds (gsst.New accepts them, or
// RandomSystem panics) and that the styles differ as documented.
func TestRandomSystemsAreValid(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	readsGroupsOf := map[Guards]int{}
	for style := MixedGuards; style < numGuards; style++ {
		for range 100 {
			sys := RandomSystem(r, Config{Guards: style, Properties: 2, GroupProperties: 2, Names: Names(int(style) % 3)})
			if !fewConfigs(len(sys.States), sys.N(), 1<<14) || len(sys.Transitions) > 3 || len(sys.Properties) != 2 {
				t.Fatalf("bounds not kept:\n%s", Describe(sys))
			}
			for _, tr := range sys.Transitions {
				for _, b := range tr.Blocks {
					if !sys.IsTotal(b.Guard) {
						readsGroupsOf[style]++
					}
				}
			}
		}
	}
	if readsGroupsOf[TotalGuards] != 0 || readsGroupsOf[SourceGuards] == 0 || readsGroupsOf[AnyGuards] == 0 || readsGroupsOf[PriorityGuards] == 0 {
		t.Errorf("guards reading group counters per style: %v", readsGroupsOf)
	}
}

// TestArchive reads and writes a txtar archive.
func TestArchive(t *testing.T) {
	src := "comment\n-- a --\nA\n-- b.yaml --\nB1\nB2\n-- empty --\n"
	a := ParseArchive([]byte(src))
	if string(a.Comment) != "comment\n" || len(a.Files) != 3 || string(a.Get("b.yaml")) != "B1\nB2\n" || a.Get("empty") == nil && a.Files[2].Name != "empty" {
		t.Fatalf("%+v", a)
	}
	if got := string(a.Format()); got != src {
		t.Errorf("round trip:\n%s", got)
	}
	if a.Get("none") != nil {
		t.Error("missing file found")
	}
}

// TestCorpus checks that every archive's expected values are what the
// oracles compute (Derive); -update rewrites the expected sections from
// them, keeping the comment and the spec. An archive that says its
// values were hand-worked is thereby also checked against the oracle.
func TestCorpus(t *testing.T) {
	cases, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := corpusDir()
	paper := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if !strings.Contains(c.Comment, "Expected values") {
				t.Error("the comment does not say how the expected values were obtained")
			}
			cert, total, group := Derive(c.Sys)
			if ConstructsOf(c.Sys) == 0 {
				// Two oracles, one on processes for every construct
				// and one of the paper's definitions, must agree.
				pcert, ptotal, pgroup := derivePaper(c.Sys)
				if !slices.Equal(cert, pcert) || string(total.Format(true)) != string(ptotal.Format(true)) || string(group.Format(false)) != string(pgroup.Format(false)) {
					t.Fatalf("the oracles disagree: on processes %v\n%s%s\nby the paper's definitions %v\n%s%s",
						cert, total.Format(true), group.Format(false), pcert, ptotal.Format(true), pgroup.Format(false))
				}
				paper++
			}
			if *update {
				writeCase(t, dir, c, cert, total, group)
				return
			}
			if !slices.Equal(c.Certification, cert) {
				t.Errorf("certification %v, oracle %v", c.Certification, cert)
			}
			for _, lv := range []struct {
				name      string
				got, want *Level
			}{{"total", c.Total, total}, {"group", c.Group, group}} {
				if lv.got == nil {
					t.Errorf("%s: missing", lv.name)
					continue
				}
				if string(lv.got.Format(lv.name == "total")) != string(lv.want.Format(lv.name == "total")) {
					t.Errorf("%s:\n%s\noracle:\n%s", lv.name, lv.got.Format(lv.name == "total"), lv.want.Format(lv.name == "total"))
				}
			}
		})
	}
	t.Logf("%d archives checked against the oracles (%d of the paper's systems also against its definitions)", len(cases), paper)
}
