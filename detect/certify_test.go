package detect

import (
	"context"
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// solvers lists the solvers every verdict test runs with. BruteForce is
// always there (with a small limit, so big queries answer unknown and are
// skipped in comparisons); the Z3 solver is added by z3_test.go.
var solvers = []struct {
	name string
	s    presburger.Solver
	// complete: the solver is expected to decide every query in the tests.
	complete bool
}{
	{"bruteforce", presburger.BruteForce{Limit: 1 << 18}, false},
}

func TestKnownAnswers(t *testing.T) {
	tests := []struct {
		name string
		sys  *gsst.System
		want []Verdict // per transition
		all  Verdict
	}{
		{"mutex", mutexSystem(3), []Verdict{Symmetric, Symmetric, Symmetric}, Symmetric},
		{"readers-writers", readersWriters(1, 2, false), []Verdict{Symmetric, Certified, Symmetric}, Certified},
		{"readers-writers-broken", readersWriters(1, 2, true), []Verdict{Symmetric, Violated, Symmetric}, Violated},
		{"grw-3-2-4", grw(3, 2, 4), []Verdict{Symmetric, Symmetric, Certified, Symmetric}, Certified},
		{"only-one-group", onlyOneGroup(), []Verdict{Violated}, Violated},
		{"no-block", noBlock(), []Verdict{Certified}, Certified},
		{"group-counter-single-block", groupCounterSingleBlock(), []Verdict{Violated}, Violated},
	}
	for _, sv := range solvers {
		for _, tt := range tests {
			t.Run(sv.name+"/"+tt.name, func(t *testing.T) {
				rep, err := Certify(context.Background(), tt.sys, sv.s)
				if err != nil {
					t.Fatal(err)
				}
				for i, res := range rep.Transitions {
					got := res.Verdict
					if got == Unknown && !sv.complete {
						t.Logf("%s: unknown (%s), skipped", tt.sys.TransitionName(res.Transition), res.Reason)
						continue
					}
					if got != tt.want[i] {
						t.Errorf("%s: got %v (%s), want %v", tt.sys.TransitionName(res.Transition), got, res.Reason, tt.want[i])
					}
					if got == Violated {
						if err := checkWitnessByHand(tt.sys, res.Transition, res.Witness); err != nil {
							t.Errorf("%s: witness: %v", tt.sys.TransitionName(res.Transition), err)
						}
					}
				}
				if got := rep.Verdict(); got != tt.all && got != Unknown {
					t.Errorf("system verdict %v, want %v", got, tt.all)
				}
				if rep.Certified() != tt.all.OK() && rep.Verdict() != Unknown {
					t.Errorf("Certified() = %v", rep.Certified())
				}
			})
		}
	}
}

// onlyOneGroup: group a may take U -> V, group b may not. With one process
// each, "a in U" is enabled and its orbit "b in U" is not.
func onlyOneGroup() *gsst.System {
	b := newBuilder("one", []string{"U", "V"}, map[string]int{"a": 1, "b": 1}, []string{"a", "b"})
	b.trans("U", "V", blk{[]string{"a"}, presburger.True})
	return b.sys
}

// noBlock: nobody may take U -> V; the empty domain is closed.
func noBlock() *gsst.System {
	b := newBuilder("none", []string{"U", "V"}, map[string]int{"a": 1, "b": 1}, []string{"a", "b"})
	b.trans("U", "V")
	return b.sys
}

// groupCounterSingleBlock: one block of all groups, but the guard reads a
// group counter (#V[a] = 0), so it needs a query, which finds a violation.
func groupCounterSingleBlock() *gsst.System {
	b := newBuilder("gc", []string{"U", "V"}, map[string]int{"a": 1, "b": 2}, []string{"a", "b"})
	b.trans("U", "V", blk{[]string{"a", "b"}, cmp(b.grp("V", "a"), presburger.Eq, 0)})
	return b.sys
}

// TestBrokenWitness checks the witness of section 4.3's broken R&W in
// detail: the enabled configuration has a writer alone in T (#T = 1, the
// writer's guard #C = 0 holds), the disabled one the reader alone in T
// (its guard needs #T = 2).
func TestBrokenWitness(t *testing.T) {
	sys := readersWriters(1, 2, true)
	rep, err := Certify(context.Background(), sys, presburger.BruteForce{})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Transitions[1]
	if res.Verdict != Violated {
		t.Fatalf("T -> C: %v (%s)", res.Verdict, res.Reason)
	}
	w := res.Witness
	if err := VerifyWitness(sys, res.Transition, w); err != nil {
		t.Fatal(err)
	}
	if err := checkWitnessByHand(sys, res.Transition, w); err != nil {
		t.Fatal(err)
	}
	// Only one orbit mixes: #T = 1 and #C = 0 (#T = 2 enables the reader
	// too, and #T = 0 or #C >= 1 disables everyone).
	const T, C = 1, 2
	for _, conf := range [][][]int{w.Enabled, w.Disabled} {
		if tot := conf[0][T] + conf[1][T]; tot != 1 {
			t.Errorf("#T = %d, want 1", tot)
		}
		if tot := conf[0][C] + conf[1][C]; tot != 0 {
			t.Errorf("#C = %d, want 0", tot)
		}
	}
	if w.Group != 1 || w.Enabled[1][T] != 1 || w.Disabled[0][T] != 1 {
		t.Errorf("witness %+v: want a writer in T enabled, the reader in T disabled", w)
	}
}

// TestWitnessRejected feeds VerifyWitness broken witnesses.
func TestWitnessRejected(t *testing.T) {
	sys := readersWriters(1, 2, true)
	tr := &sys.Transitions[1]
	good := &Witness{
		Enabled:  [][]int{{1, 0, 0}, {1, 1, 0}},
		Disabled: [][]int{{0, 1, 0}, {2, 0, 0}},
		Group:    1,
	}
	if err := VerifyWitness(sys, tr, good); err != nil {
		t.Fatalf("good witness rejected: %v", err)
	}
	bad := []struct {
		name string
		w    *Witness
	}{
		{"nil", nil},
		{"totals differ", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{1, 0, 0}, {2, 0, 0}}, Group: 1}},
		{"wrong group size", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 1}}, Disabled: [][]int{{0, 1, 0}, {2, 0, 1}}, Group: 1}},
		{"negative", &Witness{Enabled: [][]int{{2, -1, 0}, {1, 1, 0}}, Disabled: [][]int{{2, 0, -1}, {2, 0, 0}}, Group: 1}},
		{"group cannot fire", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{0, 1, 0}, {2, 0, 0}}, Group: 0}},
		{"disabled side fires", &Witness{Enabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Disabled: [][]int{{1, 0, 0}, {1, 1, 0}}, Group: 1}},
		{"short", &Witness{Enabled: [][]int{{1, 0, 0}}, Disabled: [][]int{{0, 1, 0}}, Group: 0}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := VerifyWitness(sys, tr, tt.w); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// lyingSolver answers Sat with a model that is not a witness.
type lyingSolver struct{}

func (lyingSolver) Solve(context.Context, presburger.Problem) (presburger.Answer, error) {
	return presburger.Answer{Result: presburger.Sat, Model: presburger.Model{}}, nil
}

// unknownSolver never answers.
type unknownSolver struct{}

func (unknownSolver) Solve(context.Context, presburger.Problem) (presburger.Answer, error) {
	return presburger.Answer{Result: presburger.Unknown, Reason: "gave up"}, nil
}

func TestSolverMisbehaviour(t *testing.T) {
	sys := readersWriters(1, 2, false)
	if _, err := Certify(context.Background(), sys, lyingSolver{}); err == nil {
		t.Error("a bogus sat model was accepted as a witness")
	}
	rep, err := Certify(context.Background(), sys, unknownSolver{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Certified() || rep.Verdict() != Unknown || rep.Transitions[1].Verdict != Unknown || rep.Transitions[1].Reason != "gave up" {
		t.Errorf("unknown answers: verdict %v, T -> C %+v", rep.Verdict(), rep.Transitions[1])
	}
	if _, err := Certify(context.Background(), sys, nil); err == nil {
		t.Error("no solver: no error")
	}
	// A system whose transitions are all symmetric needs no solver.
	if rep, err := Certify(context.Background(), mutexSystem(2), nil); err != nil || rep.Verdict() != Symmetric {
		t.Errorf("mutex without solver: %v, %v", rep, err)
	}
	// A cancelled context must never certify. (BruteForce looks at the
	// context only every 65536 assignments, so it is not used here.)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tried := 0
	for _, sv := range solvers {
		if _, ok := sv.s.(presburger.BruteForce); ok {
			continue
		}
		tried++
		rep, err = Certify(ctx, grw(2, 2, 3), sv.s)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Certified() || rep.Transitions[1].Verdict != Unknown {
			t.Errorf("%s: cancelled context: %v", sv.name, rep.Verdict())
		}
	}
	if tried == 0 {
		t.Error("no solver ran with a cancelled context")
	}
}

func TestMalformedSystems(t *testing.T) {
	mk := func(edit func(s *gsst.System)) *gsst.System {
		s := readersWriters(1, 2, false)
		edit(s)
		return s
	}
	tests := []struct {
		name string
		sys  *gsst.System
	}{
		{"nil", nil},
		{"state out of range", mk(func(s *gsst.System) { s.Transitions[0].To = 7 })},
		{"group out of range", mk(func(s *gsst.System) { s.Transitions[1].Blocks[0].Groups = []int{5} })},
		{"group in two blocks", mk(func(s *gsst.System) { s.Transitions[1].Blocks[0].Groups = []int{1} })},
		{"nil guard", mk(func(s *gsst.System) { s.Transitions[1].Blocks[0].Guard = nil })},
		{"stray variable", mk(func(s *gsst.System) {
			s.Transitions[1].Blocks[0].Guard = cmp(presburger.VarTerm(99), presburger.Eq, 0)
		})},
		{"negative size", mk(func(s *gsst.System) { s.Groups[0].Size = -1 })},
		{"quantified guard", mk(func(s *gsst.System) {
			s.Transitions[1].Blocks[0].Guard = presburger.Not{F: presburger.Exists{
				Vars: []presburger.Bound{{Var: 40, Lo: 0, Hi: 1}},
				Body: cmp(presburger.VarTerm(40), presburger.Eq, 1),
			}}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Certify(context.Background(), tt.sys, presburger.BruteForce{}); err == nil {
				t.Error("no error")
			}
		})
	}
}

// ---- Independent reference: Theorem 6 on the explicit state space L^n ----

// concrete enumerates every global state of L^n (process i belongs to
// group owner[i]), computes Dom(R_t) straight from Definition 3, and
// reports whether Dom(R_t) is closed under orbits, i.e. whether states
// with equal total counters are all in it or all out of it. It shares no
// code with the package's formula construction: guards are evaluated on
// counters computed here from the tuple.
func concrete(sys *gsst.System, tr *gsst.Transition) bool {
	var owner []int
	for g, gr := range sys.Groups {
		for range gr.Size {
			owner = append(owner, g)
		}
	}
	n, m := len(owner), len(sys.States)
	tuple := make([]int, n)
	seen := map[string]int{} // total-counter vector -> 1 in Dom, 2 out, 3 both
	for {
		if inDomain(sys, tr, owner, tuple) {
			seen[totalsKey(tuple, m)] |= 1
		} else {
			seen[totalsKey(tuple, m)] |= 2
		}
		i := 0
		for i < n && tuple[i] == m-1 {
			tuple[i] = 0
			i++
		}
		if i == n {
			break
		}
		tuple[i]++
	}
	for _, v := range seen {
		if v == 3 {
			return false
		}
	}
	return true
}

// inDomain reports whether some process can take tr in the global state
// tuple (Definition 3(a)).
func inDomain(sys *gsst.System, tr *gsst.Transition, owner, tuple []int) bool {
	val := func(v presburger.Var) int64 {
		s, g, ok := sys.Counter(v)
		if !ok {
			panic("test: stray variable")
		}
		c := int64(0)
		for i, l := range tuple {
			if l == s && (g < 0 || owner[i] == g) {
				c++
			}
		}
		return c
	}
	for i, l := range tuple {
		if l != tr.From {
			continue
		}
		for _, b := range tr.Blocks {
			for _, g := range b.Groups {
				if g == owner[i] && presburger.Eval(b.Guard, val) {
					return true
				}
			}
		}
	}
	return false
}

func totalsKey(tuple []int, m int) string {
	c := make([]byte, m)
	for _, l := range tuple {
		c[l]++
	}
	return string(c)
}

// checkWitnessByHand checks a witness with the reference semantics: the
// two configurations, laid out as global states, agree on total counters,
// the first is in Dom(R_t) (with a process of w.Group able to move) and
// the second is not.
func checkWitnessByHand(sys *gsst.System, tr *gsst.Transition, w *Witness) error {
	if w == nil {
		return fmt.Errorf("no witness")
	}
	layout := func(conf [][]int) (owner, tuple []int, err error) {
		for g, row := range conf {
			cnt := 0
			for s, k := range row {
				for range k {
					owner = append(owner, g)
					tuple = append(tuple, s)
				}
				cnt += k
			}
			if cnt != sys.Groups[g].Size {
				return nil, nil, fmt.Errorf("group %d has %d processes", g, cnt)
			}
		}
		return owner, tuple, nil
	}
	o1, t1, err := layout(w.Enabled)
	if err != nil {
		return err
	}
	o2, t2, err := layout(w.Disabled)
	if err != nil {
		return err
	}
	m := len(sys.States)
	if totalsKey(t1, m) != totalsKey(t2, m) {
		return fmt.Errorf("total counters differ")
	}
	if !inDomain(sys, tr, o1, t1) {
		return fmt.Errorf("enabled configuration is not in the domain")
	}
	if inDomain(sys, tr, o2, t2) {
		return fmt.Errorf("disabled configuration is in the domain")
	}
	if w.Group < 0 || w.Group >= len(sys.Groups) || w.Enabled[w.Group][tr.From] < 1 {
		return fmt.Errorf("group %d has no process in the source state", w.Group)
	}
	// Restrict the enabled state's movers to w.Group.
	only := *tr
	only.Blocks = nil
	for _, b := range tr.Blocks {
		for _, g := range b.Groups {
			if g == w.Group {
				only.Blocks = []gsst.Block{{Groups: []int{g}, Guard: b.Guard}}
			}
		}
	}
	if !inDomain(sys, &only, o1, t1) {
		return fmt.Errorf("group %d cannot move in the enabled configuration", w.Group)
	}
	return nil
}

// ---- Random GSSTs ----

type randSys struct {
	r   *rand.Rand
	sys *gsst.System
}

func randomSystem(r *rand.Rand) *gsst.System {
	for {
		m := 2 + r.Intn(3)
		d := 1 + r.Intn(3)
		sys := &gsst.System{Name: "random"}
		for i := range m {
			sys.States = append(sys.States, "S"+strconv.Itoa(i))
		}
		n := 0
		for g := range d {
			size := 1 + r.Intn(3)
			n += size
			sys.Groups = append(sys.Groups, gsst.Group{Name: "g" + strconv.Itoa(g), Size: size})
		}
		// Keep L^n small enough for explicit enumeration.
		space := 1
		for range n {
			space *= m
		}
		if space > 1<<14 {
			continue
		}
		for _, g := range sys.Groups {
			row := make([]int, m)
			row[0] = g.Size
			sys.Init = append(sys.Init, row)
		}
		rs := &randSys{r, sys}
		nt := 1 + r.Intn(2)
		for range nt {
			rs.transition()
		}
		return sys
	}
}

func (rs *randSys) transition() {
	r, sys := rs.r, rs.sys
	m, d := len(sys.States), len(sys.Groups)
	from := r.Intn(m)
	to := (from + 1 + r.Intn(m-1)) % m
	t := gsst.Transition{From: from, To: to}
	// Each group takes part with probability 4/5; participants are spread
	// over 1..3 blocks (dynamic partition, several groups per block).
	nb := 1 + r.Intn(3)
	blocks := make([][]int, nb)
	for g := range d {
		if r.Intn(5) == 0 {
			continue
		}
		k := r.Intn(nb)
		blocks[k] = append(blocks[k], g)
	}
	// Sometimes all blocks share one total-counter guard, which keeps
	// certified transitions frequent in the sample.
	shared := r.Intn(3) == 0
	var sharedGuard presburger.Formula
	if shared {
		sharedGuard = rs.formula(2, true)
	}
	for _, gs := range blocks {
		if len(gs) == 0 {
			continue
		}
		g := sharedGuard
		if !shared {
			g = rs.formula(2, r.Intn(3) == 0)
		}
		t.Blocks = append(t.Blocks, gsst.Block{Groups: gs, Guard: g})
	}
	sys.Transitions = append(sys.Transitions, t)
}

func (rs *randSys) formula(depth int, totalOnly bool) presburger.Formula {
	r := rs.r
	if depth == 0 || r.Intn(3) == 0 {
		if r.Intn(8) == 0 {
			return presburger.Bool(r.Intn(4) != 0)
		}
		return rs.atom(totalOnly)
	}
	switch r.Intn(3) {
	case 0:
		return presburger.Negation(rs.formula(depth-1, totalOnly))
	case 1:
		return presburger.Conj(rs.formula(depth-1, totalOnly), rs.formula(depth-1, totalOnly))
	}
	return presburger.Disj(rs.formula(depth-1, totalOnly), rs.formula(depth-1, totalOnly))
}

func (rs *randSys) atom(totalOnly bool) presburger.Formula {
	r, sys := rs.r, rs.sys
	var t presburger.Term
	for range 1 + r.Intn(2) {
		s := r.Intn(len(sys.States))
		v := sys.TotalVar(s)
		if !totalOnly && r.Intn(2) == 0 {
			v = sys.GroupVar(s, r.Intn(len(sys.Groups)))
		}
		coef := int64(1)
		if r.Intn(4) == 0 {
			coef = -1
		}
		t = t.Add(presburger.VarTerm(v).Scale(coef))
	}
	op := presburger.Op(r.Intn(6))
	k := int64(r.Intn(sys.N() + 1))
	if t.Monos != nil && t.Monos[0].Coef < 0 {
		k = -k
	}
	return presburger.Compare(t, op, presburger.ConstTerm(k))
}

// TestRandomCrossCheck compares the verdict of every transition of many
// random small GSSTs, with each solver, against the explicit check on L^n.
func TestRandomCrossCheck(t *testing.T) {
	const systems = 500
	variants := []struct {
		name string
		opts []Option
	}{
		{"default", nil},
		{"split3-workers2", []Option{Split(3), Workers(2)}},
	}
	for _, sv := range solvers {
		for _, v := range variants {
			if v.opts != nil && !sv.complete {
				continue // BruteForce: the default variant is enough
			}
			t.Run(sv.name+"/"+v.name, func(t *testing.T) {
				crossCheck(t, sv.s, sv.complete, systems, v.opts)
			})
		}
	}
}

// crossCheck certifies random systems (fixed seed) and compares every
// transition's verdict with the explicit check on L^n; witnesses are
// checked by hand. Unknown is tolerated only for an incomplete solver.
func crossCheck(t *testing.T, solver presburger.Solver, complete bool, systems int, opts []Option) {
	r := rand.New(rand.NewSource(20261122))
	counts := map[Verdict]int{}
	var skipped, violatedRef, closedRef int
	for i := range systems {
		sys := randomSystem(r)
		rep, err := Certify(context.Background(), sys, solver, opts...)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		for j, res := range rep.Transitions {
			tr := &sys.Transitions[j]
			closed := concrete(sys, tr)
			if closed {
				closedRef++
			} else {
				violatedRef++
			}
			counts[res.Verdict]++
			switch res.Verdict {
			case Unknown:
				if complete {
					t.Errorf("system %d %s: unknown: %s", i, sys.TransitionName(tr), res.Reason)
				}
				skipped++
			case Symmetric, Certified:
				if !closed {
					t.Errorf("system %d %s: %v, but the domain is not closed under orbits\n%s", i, sys.TransitionName(tr), res.Verdict, dump(sys))
				}
			case Violated:
				if closed {
					t.Errorf("system %d %s: violated, but the domain is closed under orbits\n%s", i, sys.TransitionName(tr), dump(sys))
				}
				if err := checkWitnessByHand(sys, tr, res.Witness); err != nil {
					t.Errorf("system %d %s: bad witness: %v", i, sys.TransitionName(tr), err)
				}
			}
		}
	}
	t.Logf("%d systems: symmetric %d, certified %d, violated %d, unknown %d (reference: %d closed, %d not closed)",
		systems, counts[Symmetric], counts[Certified], counts[Violated], skipped, closedRef, violatedRef)
	if counts[Certified] < 20 || counts[Violated] < 20 {
		t.Errorf("sample not mixed enough: %v", counts)
	}
}

func dump(sys *gsst.System) string {
	s := fmt.Sprintf("states %v groups %v\n", sys.States, sys.Groups)
	for _, tr := range sys.Transitions {
		s += sys.TransitionName(&tr) + ":\n"
		for _, b := range tr.Blocks {
			s += fmt.Sprintf("  %v: %s\n", b.Groups, presburger.Format(b.Guard, sys.VarName))
		}
	}
	return s
}

func TestParts(t *testing.T) {
	tests := []struct {
		n, k int
		want [][2]int
	}{
		{0, 1, [][2]int{{0, 0}}},
		{0, 4, [][2]int{{0, 0}}},
		{1, 3, [][2]int{{0, 1}}},
		{5, 1, [][2]int{{0, 5}}},
		{5, 2, [][2]int{{0, 2}, {2, 5}}},
		{6, 3, [][2]int{{0, 2}, {2, 4}, {4, 6}}},
		{3, 0, [][2]int{{0, 3}}},
	}
	for _, tt := range tests {
		got := parts(tt.n, tt.k)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("parts(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
}

// FuzzCertify draws a random system from the seed and checks every
// verdict against the explicit reference, as TestRandomCrossCheck does.
//
//	go test ./detect -run '^$' -fuzz FuzzCertify -fuzztime 20s
func FuzzCertify(f *testing.F) {
	for _, seed := range []int64{1, 2, 3, 42, 20261122} {
		f.Add(seed)
	}
	s := solvers[len(solvers)-1] // Z3 when present
	f.Fuzz(func(t *testing.T, seed int64) {
		sys := randomSystem(rand.New(rand.NewSource(seed)))
		rep, err := Certify(context.Background(), sys, s.s)
		if err != nil {
			t.Fatal(err)
		}
		for j, res := range rep.Transitions {
			tr := &sys.Transitions[j]
			closed := concrete(sys, tr)
			switch {
			case res.Verdict == Unknown:
				if s.complete {
					t.Errorf("%s: unknown: %s", sys.TransitionName(tr), res.Reason)
				}
			case res.Verdict.OK() != closed:
				t.Errorf("%s: %v, reference closed=%v\n%s", sys.TransitionName(tr), res.Verdict, closed, dump(sys))
			case res.Verdict == Violated:
				if err := checkWitnessByHand(sys, tr, res.Witness); err != nil {
					t.Errorf("%s: %v", sys.TransitionName(tr), err)
				}
			}
		}
	})
}
