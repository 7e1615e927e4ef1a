package gsst_test

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

const rangedSrc = `
name: rw
states: [N, T, C]
groups:
  reader: 1..
  writer: 2..5
  admin: 1
init:
  reader: N
  writer: T
  admin: {N: 1}
transitions:
  - {from: N, to: T, guard: "#T < n - 1"}
  - from: T
    to: C
    guard:
      reader: "#C = 0 & #T[writer] = 0"
      "writer, admin": "#C = 0 & 2*n >= 3"
  - {from: C, to: N}
properties:
  mutex: "AG #C <= 1"
  some: "EF #N = n"
`

func parseRanged(t *testing.T, opts ...gsst.Option) *gsst.System {
	t.Helper()
	sys, err := gsst.Parse("rw.yaml", []byte(rangedSrc), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// TestRanges checks what a parametric system holds: the ranges, the
// smallest instance in Size and Init, n as NVar, and the size variables.
func TestRanges(t *testing.T) {
	sys := parseRanged(t)
	if !sys.Parametric() {
		t.Fatal("not parametric")
	}
	want := []struct {
		size    int
		ranged  bool
		max     int
		text    string
		bounded bool
	}{
		{1, true, gsst.Unbounded, "1..", false},
		{2, true, 5, "2..5", true},
		{1, false, 0, "1", true},
	}
	for g, w := range want {
		grp := &sys.Groups[g]
		if grp.Size != w.size || grp.Ranged != w.ranged || grp.Ranged && grp.Max != w.max || grp.SizeText() != w.text {
			t.Errorf("group %s: %+v (%s), want %+v", grp.Name, *grp, grp.SizeText(), w)
		}
		if _, b := grp.Bounded(); b != w.bounded {
			t.Errorf("group %s: bounded %v", grp.Name, b)
		}
	}
	if !reflect.DeepEqual(sys.Init, [][]int{{1, 0, 0}, {0, 2, 0}, {1, 0, 0}}) {
		t.Errorf("init %v", sys.Init)
	}
	if sys.N() != 4 {
		t.Errorf("N() = %d, want 4 (the smallest instance)", sys.N())
	}
	if st, ok := sys.InitState(1); !ok || st != 1 {
		t.Errorf("InitState(writer) = %d, %v", st, ok)
	}
	name := func(f presburger.Formula) string { return presburger.Format(f, sys.VarName) }
	if got := name(sys.Transitions[0].Blocks[0].Guard); got != "#T - n < -1" {
		t.Errorf("guard of N -> T: %s", got)
	}
	if got := name(sys.Transitions[1].Blocks[1].Guard); got != "#C = 0 & 2*n >= 3" {
		t.Errorf("guard of T -> C for writer, admin: %s", got)
	}
	if got := ctl.Format(sys.Properties[1].Formula, sys.VarName); got != "EF (#N - n = 0)" {
		t.Errorf("property some: %s", got)
	}
	var names []string
	for _, v := range []presburger.Var{sys.SizeVar(0), sys.SizeVar(2), sys.NVar()} {
		names = append(names, sys.VarName(v))
		if _, _, ok := sys.Counter(v); ok {
			t.Errorf("%s is a counter", sys.VarName(v))
		}
	}
	if got := strings.Join(names, " "); got != "|reader| |admin| n" {
		t.Errorf("names %q", got)
	}
	if g, ok := sys.Param(sys.NVar()); !ok || g != -1 {
		t.Errorf("Param(NVar) = %d, %v", g, ok)
	}
	if _, ok := sys.Param(sys.TotalVar(0)); ok {
		t.Error("a counter is a parameter")
	}
	if _, ok := sys.Param(sys.NVar() + 1); ok {
		t.Error("the variable after n is a parameter")
	}
	var bounds []string
	for _, b := range sys.SizeBounds() {
		bounds = append(bounds, sys.VarName(b.Var)+" "+b.Range())
	}
	if got := strings.Join(bounds, ", "); got != "|reader| 1.., |writer| 2..5, |admin| 1..1, n 4.." {
		t.Errorf("size bounds %s", got)
	}
	if got := name(sys.SizeSum()); got != "|reader| + |writer| + |admin| - n = 0" {
		t.Errorf("size sum %s", got)
	}
	// The valuation reads sizes and n off a configuration.
	val := sys.Valuation([][]int{{3, 0, 1}, {0, 2, 0}, {0, 0, 1}}, nil)
	if val(sys.NVar()) != 7 || val(sys.SizeVar(0)) != 4 || val(sys.SizeVar(2)) != 1 || val(sys.TotalVar(2)) != 2 {
		t.Error("valuation of n, sizes or totals is wrong")
	}
}

// TestFixedSizesUnchanged: a range N..N is the size N, and a system with
// fixed sizes keeps n folded.
func TestFixedSizesUnchanged(t *testing.T) {
	src := strings.Replace(strings.Replace(rangedSrc, "1..", "3..3", 1), "2..5", "2", 1)
	sys, err := gsst.Parse("rw.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sys.Parametric() || sys.Groups[0].Ranged || sys.Groups[0].Size != 3 {
		t.Fatalf("groups %+v", sys.Groups)
	}
	if got := presburger.Format(sys.Transitions[0].Blocks[0].Guard, sys.VarName); got != "#T < 5" {
		t.Errorf("guard %s, want n folded to 6", got)
	}
}

// TestAllSizes reads a fixed-size file with every size 1.., and refuses
// count inits under it.
func TestAllSizes(t *testing.T) {
	src := strings.Replace(strings.Replace(rangedSrc, "1..", "3", 1), "2..5", "2", 1)
	src = strings.Replace(src, "admin: {N: 1}", "admin: N", 1)
	sys, err := gsst.Parse("rw.yaml", []byte(src), gsst.AllSizes())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range sys.Groups {
		if g.SizeText() != "1.." {
			t.Errorf("group %s: %s, want 1..", g.Name, g.SizeText())
		}
	}
	if got := presburger.Format(sys.Transitions[0].Blocks[0].Guard, sys.VarName); got != "#T - n < -1" {
		t.Errorf("guard %s", got)
	}
	_, err = gsst.Parse("rw.yaml", []byte(rangedSrc), gsst.AllSizes())
	if err == nil || !strings.Contains(err.Error(), `rw.yaml:11:3: init of group "admin" gives counts per state, but its size is the range 1.. (every group is read for all sizes)`) {
		t.Errorf("count init under AllSizes: %v", err)
	}
	// The file must still be valid as written.
	bad := strings.Replace(src, "admin: 1", "admin: 0", 1)
	if _, err := gsst.Parse("rw.yaml", []byte(bad), gsst.AllSizes()); err == nil || !strings.Contains(err.Error(), "needs at least one process") {
		t.Errorf("bad size under AllSizes: %v", err)
	}
}

func TestInstantiate(t *testing.T) {
	sys := parseRanged(t)
	inst, err := sys.Instantiate([]int{3, 4, 1})
	if err != nil {
		t.Fatal(err)
	}
	if inst.Parametric() || inst.N() != 8 {
		t.Fatalf("instance: parametric %v, n %d", inst.Parametric(), inst.N())
	}
	if _, err := gsst.New(inst.Spec()); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(inst.Init, [][]int{{3, 0, 0}, {0, 4, 0}, {1, 0, 0}}) {
		t.Errorf("init %v", inst.Init)
	}
	if got := presburger.Format(inst.Transitions[0].Blocks[0].Guard, inst.VarName); got != "#T < 7" {
		t.Errorf("guard %s", got)
	}
	if got := inst.Transitions[1].Blocks[1].Guard; presburger.Format(got, inst.VarName) != "#C = 0" {
		t.Errorf("guard %s: 2*n >= 3 should fold to true", presburger.Format(got, inst.VarName))
	}
	if got := ctl.Format(inst.Properties[1].Formula, inst.VarName); got != "EF (#N = 8)" {
		t.Errorf("property %s", got)
	}
	small, err := sys.Smallest()
	if err != nil || small.N() != 4 || small.Parametric() || small.Groups[1].Size != 2 {
		t.Errorf("Smallest: %v, %+v", err, small)
	}
	// The parametric system is left alone.
	if sys.Groups[0].Size != 1 || sys.Init[1][1] != 2 {
		t.Error("Instantiate changed the parametric system")
	}
	// A fixed system with its own sizes is itself.
	if same, err := inst.Instantiate([]int{3, 4, 1}); err != nil || same != inst {
		t.Errorf("instantiating an instance: %v, %v", same == inst, err)
	}

	for _, tt := range []struct {
		sizes []int
		want  string
	}{
		{[]int{1, 4}, "2 sizes for 3 groups"},
		{[]int{0, 2, 1}, "size 0 of group reader is outside its range 1.."},
		{[]int{1, 6, 1}, "size 6 of group writer is outside its range 2..5"},
		{[]int{1, 2, 2}, "group admin has the fixed size 1, not 2"},
		{[]int{gsst.MaxProcesses, 2, 1}, "add up to more than 1000000 processes"},
	} {
		_, err := sys.Instantiate(tt.sizes)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, errkind.Input) {
			t.Errorf("Instantiate(%v) = %v, want an input error containing %q", tt.sizes, err, tt.want)
		}
	}
	big, err := gsst.Parse("big.yaml", []byte("states: [A, B]\ngroups: {p: 1..}\ninit: A\ntransitions:\n  - {from: A, to: B, guard: \"10000*n > #A\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := big.Instantiate([]int{999999}); err == nil || !strings.Contains(err.Error(), "big.yaml:5:29: with n = 999999, the guard of A -> B has a constant beyond the limit") {
		t.Errorf("overflowing instance: %v", err)
	}
}

func TestSizesByName(t *testing.T) {
	sys := parseRanged(t)
	got, err := sys.SizesByName(map[string]int{"reader": 7, "writer": 5})
	if err != nil || !reflect.DeepEqual(got, []int{7, 5, 1}) {
		t.Errorf("SizesByName = %v, %v", got, err)
	}
	if got, err := sys.SizesByName(map[string]int{"reader": 1, "writer": 2, "admin": 1}); err != nil || !reflect.DeepEqual(got, []int{1, 2, 1}) {
		t.Errorf("SizesByName with a fixed group = %v, %v", got, err)
	}
	_, err = sys.SizesByName(map[string]int{"writer": 9, "guest": 1, "admin": 3})
	want := "group admin has the fixed size 1, not 3; no group named guest (the groups are reader, writer, admin); size 9 of group writer is outside its range 2..5; no size given for the ranged group reader (1..)"
	if err == nil || err.Error() != want || !errors.Is(err, errkind.Input) {
		t.Errorf("SizesByName errors:\n got %v\nwant %s", err, want)
	}
	if got := sys.FormatSizes([]int{1, 2, 1}); got != "reader=1, writer=2, admin=1" {
		t.Errorf("FormatSizes = %q", got)
	}
	if got := strings.Join(sys.RangedGroups(), "; "); got != "reader: 1..; writer: 2..5" {
		t.Errorf("RangedGroups = %q", got)
	}
}

// TestNewRanges: the rules of New cover ranged groups and n.
func TestNewRanges(t *testing.T) {
	tests := []struct {
		name string
		edit func(s *gsst.Spec)
		want string
	}{
		{"ranged zero", func(s *gsst.Spec) { s.Groups[0].Size = 0; s.Init[0] = []int{0, 0, 0} }, `group "reader" has least size 0; a group needs at least one process`},
		{"empty range", func(s *gsst.Spec) { s.Groups[1].Max = 2 }, "group writer has the range of sizes 2..2; the greatest size must lie in 3..1000000"},
		{"range above limit", func(s *gsst.Spec) { s.Groups[1].Max = gsst.MaxProcesses + 1 }, `group "writer" has greatest size 1000001, above the limit`},
		{"spread init", func(s *gsst.Spec) { s.Groups[1].Size = 3; s.Init[1] = []int{1, 2, 0} }, `init of group "writer" gives counts per state, but its size is the range 3..5`},
		{"stray variable", func(s *gsst.Spec) {
			s.Transitions[2].Blocks[0].Guard = presburger.Compare(presburger.VarTerm(s.SizeVar(0)), presburger.Eq, presburger.ConstTerm(0))
		}, "guard of C -> N uses variable 12, which is neither a counter nor n"},
		{"n in a fixed system", func(s *gsst.Spec) {
			for g := range s.Groups {
				s.Groups[g].Ranged = false
			}
		}, "which is not a counter (n is a constant when the group sizes are)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := parseRanged(t).Spec()
			tt.edit(spec)
			_, err := gsst.New(spec)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, errkind.Input) {
				t.Fatalf("New() = %v, want an input error containing %q", err, tt.want)
			}
		})
	}
	if _, err := gsst.New(parseRanged(t).Spec()); err != nil {
		t.Errorf("New refuses the parsed parametric system: %v", err)
	}
}

// TestInstantiateMatchesParse compares, on random parametric specs, the
// instance Instantiate builds with the system parsed from the same text
// with the sizes written in: every guard and property must print the
// same, and the groups and initial configurations must agree.
func TestInstantiateMatchesParse(t *testing.T) {
	r := rand.New(rand.NewSource(20261123))
	const specs = 300
	cfg := testsupport.Config{Ranges: true, NGuards: true, MaxTransitions: 4, Properties: 2, GroupProperties: 2}
	instances := 0
	for i := range specs {
		src := testsupport.YAML(testsupport.RandomSystem(r, cfg))
		sys, err := gsst.Parse("r.yaml", []byte(src))
		if err != nil {
			t.Fatalf("spec %d does not parse: %v\n%s", i, err, src)
		}
		if !sys.Parametric() {
			t.Fatalf("spec %d: not parametric\n%s", i, src)
		}
		for range 3 {
			sizes := pickSizes(r, sys)
			inst, err := sys.Instantiate(sizes)
			if err != nil {
				t.Fatalf("spec %d, sizes %v: %v\n%s", i, sizes, err, src)
			}
			text := withSizes(sys, src, sizes)
			fixed, err := gsst.Parse("r.yaml", []byte(text))
			if err != nil || fixed.Parametric() {
				t.Fatalf("spec %d with sizes %v does not parse as a fixed instance: %v\n%s", i, sizes, err, text)
			}
			if a, b := describe(inst), describe(fixed); a != b {
				t.Fatalf("spec %d, sizes %v: Instantiate and Parse differ\n%s\n---\n%s\n--- spec:\n%s", i, sizes, a, b, src)
			}
			instances++
		}
	}
	t.Logf("%d specs, %d instances compared", specs, instances)
}

// pickSizes draws sizes within the ranges of sys (at most 3 above the
// least for a range without a greatest size).
func pickSizes(r *rand.Rand, sys *gsst.System) []int {
	out := make([]int, len(sys.Groups))
	for g := range out {
		grp := &sys.Groups[g]
		hi, ok := grp.Bounded()
		if !ok {
			hi = grp.Size + 3
		}
		out[g] = grp.Size + r.Intn(hi-grp.Size+1)
	}
	return out
}

// withSizes writes the sizes into src, testsupport.YAML's text of sys,
// in place of the ranges (a ranged group starts in one state, which
// init says the same way for a fixed size).
func withSizes(sys *gsst.System, src string, sizes []int) string {
	for g := range sys.Groups {
		grp := &sys.Groups[g]
		if grp.Ranged {
			src = strings.Replace(src, fmt.Sprintf("  %q: %q\n", grp.Name, grp.SizeText()), fmt.Sprintf("  %q: %d\n", grp.Name, sizes[g]), 1)
		}
	}
	return src
}

// describe prints everything about a system that analyses read.
func describe(sys *gsst.System) string {
	var b strings.Builder
	for _, g := range sys.Groups {
		fmt.Fprintf(&b, "group %s %s\n", g.Name, g.SizeText())
	}
	fmt.Fprintf(&b, "init %v\n", sys.Init)
	for i := range sys.Transitions {
		tr := &sys.Transitions[i]
		for _, blk := range tr.Blocks {
			fmt.Fprintf(&b, "%s %v: %s\n", sys.TransitionName(tr), blk.Groups, presburger.Format(blk.Guard, sys.VarName))
		}
	}
	for _, p := range sys.Properties {
		fmt.Fprintf(&b, "%s: %s\n", p.Name, ctl.Format(p.Formula, sys.VarName))
	}
	return b.String()
}
