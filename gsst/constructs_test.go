package gsst_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The specs of testdata/constructs use every construct beyond the paper's GSSTs:
// threshold (parameters, assumption, a size over parameters, an unbounded
// shared counter), lock (booleans, an enumeration, a bounded integer,
// per-group guards and updates, a broadcast) and pool (rendezvous).

func loadExample(t *testing.T, name string) *gsst.System {
	t.Helper()
	sys, err := gsst.Load("testdata/constructs/" + name + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// eval evaluates f with the named variables (shared variables, parameters,
// counters "#S", n) set as in vals; others read 0.
func eval(sys *gsst.System, f presburger.Formula, vals map[string]int64) bool {
	return presburger.Eval(f, func(v presburger.Var) int64 { return vals[sys.VarName(v)] })
}

func evalTerm(sys *gsst.System, t presburger.Term, vals map[string]int64) int64 {
	return t.Eval(func(v presburger.Var) int64 { return vals[sys.VarName(v)] })
}

func TestThresholdExample(t *testing.T) {
	sys := loadExample(t, "threshold")
	if !sys.Parametric() || len(sys.Shared) == 0 || len(sys.Rendezvous) > 0 || hasBroadcast(sys) || sys.Simple() {
		t.Errorf("Parametric %v, %d shared variables, %d rendezvous, Simple %v", sys.Parametric(), len(sys.Shared), len(sys.Rendezvous), sys.Simple())
	}
	var names []string
	for _, p := range sys.Params {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"n", "t", "f"}) {
		t.Errorf("params %v", names)
	}
	a := sys.Assume.Formula
	for _, c := range []struct {
		n, t, f int64
		want    bool
	}{{4, 1, 1, true}, {3, 1, 1, false}, {7, 2, 3, false}, {7, 2, 2, true}, {1, 0, 0, true}} {
		if got := eval(sys, a, map[string]int64{"n": c.n, "t": c.t, "f": c.f}); got != c.want {
			t.Errorf("assume at n=%d t=%d f=%d: %v", c.n, c.t, c.f, got)
		}
	}
	g := &sys.Groups[0]
	if !g.OverParams() || g.SizeTermText != "n - f" || evalTerm(sys, g.SizeTerm, map[string]int64{"n": 7, "f": 2}) != 5 {
		t.Errorf("size of correct: %+v", g)
	}
	v := &sys.Shared[0]
	if v.Name != "nsent" || !v.Unbounded || v.Lo != 0 || v.Init != 0 || v.Contains(-1) || !v.Contains(1<<40) {
		t.Errorf("nsent: %+v", v)
	}
	guard := sys.Transitions[1].Blocks[0].Guard // V0 -> SE: nsent >= t + 1 - f
	for nsent, want := range []bool{false, true, true} {
		if got := eval(sys, guard, map[string]int64{"nsent": int64(nsent), "t": 1, "f": 1}); got != want {
			t.Errorf("guard with nsent=%d: %v", nsent, got)
		}
	}
	up := sys.Transitions[1].Blocks[0].Update
	if len(up.Assign) != 1 || up.Assign[0].Var != sys.SharedVar(0) || evalTerm(sys, up.Assign[0].Value, map[string]int64{"nsent": 4}) != 5 {
		t.Errorf("update %+v", up)
	}
}

func TestLockExample(t *testing.T) {
	sys := loadExample(t, "lock")
	if sys.Parametric() || len(sys.Shared) == 0 || len(sys.Rendezvous) > 0 || !hasBroadcast(sys) {
		t.Errorf("Parametric %v, %d shared variables, %d rendezvous, broadcast %v", sys.Parametric(), len(sys.Shared), len(sys.Rendezvous), hasBroadcast(sys))
	}
	lock, turn, k := &sys.Shared[0], &sys.Shared[1], &sys.Shared[2]
	if !lock.Bool || lock.Init != 0 || turn.Init != 1 || turn.ValueName(0) != "reader" || k.Hi != 3 || k.Unbounded {
		t.Errorf("shared %+v", sys.Shared)
	}
	// T -> C has one guard per group and one update per group: a block each.
	tc := &sys.Transitions[1]
	if len(tc.Blocks) != 2 {
		t.Fatalf("T -> C has %d blocks", len(tc.Blocks))
	}
	reader, writer := tc.BlockOf(0), tc.BlockOf(1)
	vals := map[string]int64{"lock": 0, "turn": 0}
	if !eval(sys, reader.Guard, vals) || eval(sys, reader.Guard, map[string]int64{"lock": 1}) || eval(sys, reader.Guard, map[string]int64{"turn": 1}) {
		t.Errorf("reader guard %v", reader.Guard)
	}
	after := func(u gsst.Update, vals map[string]int64) map[string]int64 {
		out := map[string]int64{}
		for name, x := range vals {
			out[name] = x
		}
		for _, a := range u.Assign {
			out[sys.VarName(a.Var)] = evalTerm(sys, a.Value, vals)
		}
		return out
	}
	if got := after(writer.Update, map[string]int64{"lock": 0, "turn": 1, "k": 2}); !reflect.DeepEqual(got, map[string]int64{"lock": 1, "turn": 0, "k": 3}) {
		t.Errorf("writer's update gives %v", got)
	}
	if got := after(reader.Update, map[string]int64{"lock": 0, "turn": 0, "k": 2}); !reflect.DeepEqual(got, map[string]int64{"lock": 1, "turn": 1, "k": 2}) {
		t.Errorf("reader's update gives %v", got)
	}
	iw := &sys.Transitions[3]
	want := []gsst.Transfer{{From: 1, To: 0, Groups: nil, Pos: iw.Broadcast[0].Pos}, {From: 2, To: 0, Groups: []int{1}, Pos: iw.Broadcast[1].Pos}}
	if !reflect.DeepEqual(iw.Broadcast, want) || iw.Broadcast[1].Pos.Line != 26 {
		t.Errorf("broadcast %+v", iw.Broadcast)
	}
	if len(iw.Blocks) != 1 || len(iw.Blocks[0].Update.Assign) != 2 {
		t.Errorf("I -> W blocks %+v", iw.Blocks)
	}
	held := sys.Properties[1].Formula
	if held == nil || !strings.Contains(sys.Properties[1].Text, "lock") {
		t.Errorf("property %+v", sys.Properties[1])
	}
	j := sys.Fairness.Justice[0].Formula
	if eval(sys, j, map[string]int64{"lock": 1, "turn": 1}) || !eval(sys, j, map[string]int64{"lock": 1, "turn": 0}) {
		t.Errorf("justice %v", j)
	}
}

func TestPoolExample(t *testing.T) {
	sys := loadExample(t, "pool")
	if len(sys.Shared) == 0 || hasBroadcast(sys) || len(sys.Rendezvous) != 2 {
		t.Fatalf("%d shared variables, broadcast %v, %d rendezvous", len(sys.Shared), hasBroadcast(sys), len(sys.Rendezvous))
	}
	r := &sys.Rendezvous[0]
	if got := sys.RendezvousName(r); got != "rendezvous P -> P2, C -> C2" {
		t.Errorf("name %q", got)
	}
	if r.Parts[0].Groups != nil || !reflect.DeepEqual(r.Parts[1].Groups, []int{1}) {
		t.Errorf("parts %+v", r.Parts)
	}
	if !eval(sys, r.Guard, map[string]int64{"items": 1}) || eval(sys, r.Guard, map[string]int64{"items": 2}) {
		t.Errorf("guard %v", r.Guard)
	}
	two := &sys.Rendezvous[1]
	if len(two.Parts) != 3 || !reflect.DeepEqual(two.Parts[0], gsst.Part{From: 4, To: 5, Pos: two.Parts[0].Pos}) || two.Text != "items >= 1 & #U >= 2" {
		t.Errorf("second rendezvous %+v", two)
	}
}

// TestNewConstructs checks that New accepts the Spec of every parsed example
// and gives back the same System, and refuses each hand-made mistake in
// the new constructs, as bad input.
func TestNewConstructs(t *testing.T) {
	for _, name := range []string{"threshold", "lock", "pool"} {
		sys := loadExample(t, name)
		again, err := gsst.New(sys.Spec())
		if err != nil {
			t.Fatalf("%s: parsed system refused: %v", name, err)
		}
		if !reflect.DeepEqual(again, sys) {
			t.Errorf("%s: New(sys.Spec()) differs from the parsed system", name)
		}
	}
	lock, pool, thr := loadExample(t, "lock"), loadExample(t, "pool"), loadExample(t, "threshold")
	tests := []struct {
		name string
		sys  *gsst.System
		edit func(s *gsst.Spec)
		want string
	}{
		{"bool domain", lock, func(s *gsst.Spec) { s.Shared[0].Hi = 2 }, "lock.yaml:6:16: boolean variable lock must have the domain 0..1"},
		{"enum domain", lock, func(s *gsst.Spec) { s.Shared[1].Hi = 5 }, "enumeration variable turn must have the domain 0..1"},
		{"enum empty", lock, func(s *gsst.Spec) { s.Shared[1].Values = []string{} }, "shared variable turn has an empty enumeration"},
		{"enum twice", lock, func(s *gsst.Spec) { s.Shared[1].Values[1] = "reader" }, `lock.yaml:7:25: enumeration constant "reader" appears twice`},
		{"empty domain", lock, func(s *gsst.Spec) { s.Shared[2].Lo = 4 }, "lock.yaml:8:13: empty domain 4..3 of k"},
		{"huge domain", lock, func(s *gsst.Spec) { s.Shared[2].Hi = gsst.MaxConstant + 1 }, "beyond the limit"},
		{"init outside", lock, func(s *gsst.Spec) { s.Shared[2].Init = -1 }, "lock.yaml:8:25: initial value -1 of k is outside its domain 0..3"},
		{"name clash", lock, func(s *gsst.Spec) { s.Shared[2].Name = "turn" }, `shared variable "turn" has the name of a shared variable (at testdata/constructs/lock.yaml:7:3)`},
		{"constant clash", lock, func(s *gsst.Spec) { s.Shared[2].Name = "writer" }, `enumeration constant "writer" has the name of a shared variable`},
		{"reserved", lock, func(s *gsst.Spec) { s.Shared[2].Name = "false" }, "false is predeclared"},
		{"not a name", lock, func(s *gsst.Spec) { s.Shared[2].Name = "2k" }, `shared variable "2k" is not a name`},
		{"assign counter", lock, func(s *gsst.Spec) {
			s.Transitions[2].Blocks[0].Update.Assign[0].Var = s.TotalVar(0)
		}, "lock.yaml:20:13: update of C -> I assigns #I, which is not a shared variable"},
		{"assign twice", lock, func(s *gsst.Spec) {
			u := &s.Transitions[3].Blocks[0].Update
			u.Assign[1].Var = u.Assign[0].Var
		}, "update of I -> W assigns k twice"},
		{"bool value", lock, func(s *gsst.Spec) {
			s.Transitions[2].Blocks[0].Update.Assign[0].Value = presburger.ConstTerm(2)
		}, "assigns boolean variable lock a value that is not true, false or a boolean variable"},
		{"enum value", lock, func(s *gsst.Spec) {
			s.Transitions[1].Blocks[0].Update.Assign[1].Value = presburger.VarTerm(s.SharedVar(2))
		}, "assigns enumeration variable turn a value that is not one of its constants"},
		{"int reads counter", lock, func(s *gsst.Spec) {
			s.Transitions[3].Blocks[0].Update.Assign[0].Value = presburger.VarTerm(s.TotalVar(1))
		}, "assigns k a value reading #T"},
		{"int reads bool", lock, func(s *gsst.Spec) {
			s.Transitions[3].Blocks[0].Update.Assign[0].Value = presburger.VarTerm(s.SharedVar(0))
		}, "assigns k a value reading lock"},
		{"transfer loop", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[0].To = 1 }, "lock.yaml:25:9: transfer T -> T of I -> W moves no process"},
		{"transfer twice", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[1].From = 1 }, "lock.yaml:26:9: broadcast of I -> W moves the processes in T twice (first at testdata/constructs/lock.yaml:25:9)"},
		{"transfer range", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[1].To = 9 }, "transfer 1 has a state out of range"},
		{"transfer groups", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[1].Groups = []int{1, 0} }, "groups not sorted or listed twice"},
		{"transfer no group", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[1].Groups = []int{} }, "restricted to no group"},
		{"transfer group range", lock, func(s *gsst.Spec) { s.Transitions[3].Broadcast[1].Groups = []int{2} }, "group 2 out of range"},
		{"one part", pool, func(s *gsst.Spec) { s.Rendezvous[0].Parts = s.Rendezvous[0].Parts[:1] }, "pool.yaml:14:5: rendezvous 0 has 1 parts"},
		{"step named all", pool, func(s *gsst.Spec) { s.Rendezvous[0].Name = "all" }, "pool.yaml:14:5: a step may not be named all"},
		{"steps named alike", pool, func(s *gsst.Spec) { s.Rendezvous[0].Name, s.Rendezvous[1].Name = "give", "give" }, "two steps are named give (the other at testdata/constructs/pool.yaml:14:5)"},
		{"rendezvous transfer loop", pool, func(s *gsst.Spec) { s.Rendezvous[0].Broadcast = []gsst.Transfer{{From: 1, To: 1}} }, "transfer P2 -> P2 of rendezvous P -> P2, C -> C2 moves no process"},
		{"part range", pool, func(s *gsst.Spec) { s.Rendezvous[0].Parts[1].From = -1 }, "part 1 has a state out of range"},
		{"part groups", pool, func(s *gsst.Spec) { s.Rendezvous[0].Parts[1].Groups = []int{1, 1} }, "groups not sorted or listed twice"},
		{"rendezvous guard", pool, func(s *gsst.Spec) { s.Rendezvous[0].Guard = nil }, "rendezvous P -> P2, C -> C2: missing guard"},
		{"rendezvous update", pool, func(s *gsst.Spec) {
			s.Rendezvous[1].Update.Assign[0].Value = presburger.VarTerm(s.TotalVar(0))
		}, "update of rendezvous U -> U2, U -> U2, C2 -> C assigns items a value reading #P"},
		{"rendezvous guard var", pool, func(s *gsst.Spec) {
			s.Rendezvous[0].Guard = presburger.Compare(presburger.VarTerm(999), presburger.Eq, presburger.ConstTerm(0))
		}, "guard of rendezvous P -> P2, C -> C2 uses variable 999"},
		{"param name", thr, func(s *gsst.Spec) { s.Params[1].Name = "nsent" }, `shared variable "nsent" has the name of a parameter`},
		{"param value", thr, func(s *gsst.Spec) { s.Params[1].Fixed, s.Params[1].Value = true, -1 }, "parameter t has the value -1"},
		{"assume reads counter", thr, func(s *gsst.Spec) {
			s.Assume.Formula = presburger.Compare(presburger.VarTerm(s.TotalVar(0)), presburger.Eq, presburger.ConstTerm(0))
		}, "threshold.yaml:6:9: the assumption reads #V0"},
		{"assume false", thr, func(s *gsst.Spec) { s.Assume.Formula = presburger.False }, `the assumption "n > 3*t & t >= f & f >= 0" does not hold`},
		{"size term reads shared", thr, func(s *gsst.Spec) { s.Groups[0].SizeTerm = presburger.VarTerm(s.SharedVar(0)) }, `threshold.yaml:11:12: the size of group "correct" reads nsent`},
		{"size term and range", thr, func(s *gsst.Spec) { s.Groups[0].Ranged, s.Groups[0].Max = true, gsst.Unbounded }, "has both a range of sizes and a size over the parameters"},
		{"size term constant", thr, func(s *gsst.Spec) { s.Groups[0].SizeTerm = presburger.ConstTerm(3) }, "constant size term 3"},
		{"size term init", thr, func(s *gsst.Spec) { s.Groups[0].Size = 2; s.Init[0] = []int{1, 1, 0, 0} }, "its size is n - f, over the parameters"},
		{"fixed param read", thr, func(s *gsst.Spec) { s.Params[1].Fixed, s.Params[1].Value = true, 1 }, "guard of V0 -> SE uses parameter t, which is fixed in this instance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.sys.Spec()
			tt.edit(spec)
			refused(t, spec, tt.want)
		})
	}
}

// TestNewMatchesParseConstructs checks that the rules of the new constructs
// exist once: a mistake made in the text and the same mistake made by
// hand in the Spec of the correct text give New and Parse identical
// errors, positions included.
func TestNewMatchesParseConstructs(t *testing.T) {
	const src = `
params: [n, t, u]
assume: "n > 2*t"
shared:
  k: {type: 0..3, init: 1}
  mode: {type: [idle, busy, off], init: idle}
  spare: {type: bool, init: true}
states: [A, B, C]
groups:
  g: n - t
  h: 2
init: A
transitions:
  - from: A
    to: B
    guard: "k < 3 & mode = idle"
    update: "k := k + 1; mode := busy"
    broadcast:
      - B -> C
      - C -> A [h]
  - {from: B, to: A}
rendezvous:
  - parts: [{from: A, to: B}, {from: B, to: C, groups: [h]}]
    guard: "#A >= 1"
properties:
  p: "AG k <= 3"
`
	sys, err := gsst.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	matchParse(t, sys, src, []parseEdit{
		{"init outside", "init: 1}", "init: 7}", func(s *gsst.Spec) { s.Shared[0].Init = 7 }},
		{"empty domain", "0..3", "3..0", func(s *gsst.Spec) { s.Shared[0].Lo, s.Shared[0].Hi = 3, 0 }},
		{"name clash", "  spare: {", "  t: {", func(s *gsst.Spec) { s.Shared[2].Name = "t" }},
		{"constant clash", "busy, off]", "busy, k]", func(s *gsst.Spec) { s.Shared[1].Values[2] = "k" }},
		{"constant twice", "busy, off]", "busy, idle]", func(s *gsst.Spec) { s.Shared[1].Values[2] = "idle" }},
		{"transfer loop", "B -> C\n", "B -> B\n", func(s *gsst.Spec) { s.Transitions[0].Broadcast[0].To = 1 }},
		{"transfer twice", "C -> A [h]", "B -> A [h]", func(s *gsst.Spec) { s.Transitions[0].Broadcast[1].From = 1 }},
		{"param clash", "params: [n, t, u]", "params: [n, t, mode]", func(s *gsst.Spec) { s.Params[2].Name = "mode" }},
	})
}

// TestUpdateSplitsBlocks: updates per group split the guard blocks so
// that the groups of a block share guard and update; a group in no
// update key takes the transition and updates nothing.
func TestUpdateSplitsBlocks(t *testing.T) {
	sys, err := gsst.Parse("tmpl.yaml", []byte(paramTemplate))
	if err != nil {
		t.Fatal(err)
	}
	ab := &sys.Transitions[0]
	type block struct {
		groups []int
		text   string
		assign int
	}
	var got []block
	for _, b := range ab.Blocks {
		got = append(got, block{b.Groups, b.Text, len(b.Update.Assign)})
	}
	want := []block{{[]int{0}, "c >= t + 1 - f & #B[g] < n", 2}, {[]int{1}, "2*t - f < #C + c", 2}, {[]int{2}, "2*t - f < #C + c", 0}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %+v, want %+v", got, want)
	}
	if ab.Blocks[1].Update.Text != "ok := true; m := n - t - f" || ab.Blocks[2].Update.Text != "" {
		t.Errorf("updates %q, %q", ab.Blocks[1].Update.Text, ab.Blocks[2].Update.Text)
	}
	// A shared update goes to every block of a guard per group.
	src := strings.Replace(paramTemplate, `update: {g: "c := c + 1; m := t", h: "ok := true; m := n - t - f"}`, `update: "c := c + 1"`, 1)
	sys, err = gsst.Parse("tmpl.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ab := &sys.Transitions[0]; len(ab.Blocks) != 2 || len(ab.Blocks[0].Update.Assign) != 1 || len(ab.Blocks[1].Update.Assign) != 1 {
		t.Errorf("shared update: blocks %+v", ab.Blocks)
	}
}

// TestFormatFormula: booleans and enumerations print as the language
// writes them, and the printed guards read back.
func TestFormatFormula(t *testing.T) {
	sys := loadExample(t, "lock")
	tc := &sys.Transitions[1]
	for _, c := range []struct {
		f    presburger.Formula
		want string
	}{
		{tc.BlockOf(0).Guard, "!lock & turn = reader"},
		{tc.BlockOf(1).Guard, "!lock"},
		{sys.Fairness.Justice[0].Formula, "!lock | turn = reader"}, // turn != writer: the other value
		{presburger.Negation(tc.BlockOf(0).Guard), "!(!lock & turn = reader)"},
		{presburger.Conj(sys.Transitions[3].Blocks[0].Guard, presburger.Compare(presburger.VarTerm(sys.TotalVar(2)), presburger.Eq, presburger.ConstTerm(0))), "k = 3 & #C = 0"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(1)), presburger.Ge, presburger.ConstTerm(0)), "true"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(0)), presburger.Eq, presburger.VarTerm(sys.SharedVar(0)).Scale(2)), "!lock"},
		{presburger.Not{F: presburger.Compare(presburger.VarTerm(sys.SharedVar(0)), presburger.Eq, presburger.ConstTerm(1))}, "!(lock)"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(2)), presburger.Lt, presburger.ConstTerm(3)), "k < 3"},
		// A boolean in arithmetic, which the language does not write:
		// by cases over its values.
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(0)).Add(presburger.VarTerm(sys.SharedVar(2))), presburger.Ge, presburger.ConstTerm(2)), "(!lock -> k >= 2) & (lock -> k >= 1)"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(0)).Add(presburger.VarTerm(sys.TotalVar(2))), presburger.Le, presburger.ConstTerm(0)), "(!lock -> #C <= 0) & (lock -> #C <= -1)"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(0)).Add(presburger.VarTerm(sys.SharedVar(1))), presburger.Le, presburger.ConstTerm(1)), "!(lock & turn = writer)"},
		{presburger.Compare(presburger.VarTerm(sys.SharedVar(0)).Add(presburger.VarTerm(sys.SharedVar(1))), presburger.Le, presburger.ConstTerm(0)), "!lock & turn = reader"},
	} {
		if got := sys.FormatFormula(c.f); got != c.want {
			t.Errorf("FormatFormula = %q, want %q", got, c.want)
		}
	}
}

// TestFormatUpdate: updates print as the language writes them and read
// back the same.
func TestFormatUpdate(t *testing.T) {
	sys := loadExample(t, "lock")
	for _, c := range []struct {
		u    *gsst.Update
		want string
	}{
		{&sys.Transitions[1].BlockOf(0).Update, "lock := true; turn := writer"},
		{&sys.Transitions[1].BlockOf(1).Update, "lock := true; turn := reader; k := k + 1"},
		{&sys.Transitions[3].Blocks[0].Update, "k := 0; lock := false"},
		{&gsst.Update{}, ""},
	} {
		if got := sys.FormatUpdate(c.u); got != c.want {
			t.Errorf("FormatUpdate = %q, want %q", got, c.want)
		}
	}
	thr := loadExample(t, "threshold")
	if got := thr.FormatUpdate(&thr.Transitions[0].Blocks[0].Update); got != "nsent := nsent + 1" {
		t.Errorf("FormatUpdate = %q", got)
	}
}

// TestRendezvousOnly: a system whose steps are all rendezvous may leave
// transitions out, for vsym and for the schema alike; a system with
// neither still misses its transitions, and the error says when they may
// be left out.
func TestRendezvousOnly(t *testing.T) {
	const head = "name: swap\nstates: [A, B]\ngroups: {p: 2}\ninit: A\n"
	src := head + "rendezvous:\n  - parts: [{from: A, to: B}, {from: A, to: B}]\n  - parts: [{from: B, to: A}, {from: B, to: A}]\nproperties:\n  pairs: \"AG #A != 1\"\n"
	sys, err := gsst.Parse("swap.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.Transitions) != 0 || len(sys.Rendezvous) != 2 {
		t.Errorf("%d transitions, %d rendezvous; want 0 and 2", len(sys.Transitions), len(sys.Rendezvous))
	}
	sch := gsst.CompileSchema(t)
	if errs := gsst.SchemaErrors(t, sch, []byte(src)); errs != nil {
		t.Errorf("the schema rejects a system of rendezvous alone: %v", errs)
	}
	_, err = gsst.Parse("none.yaml", []byte(head))
	if err == nil || !strings.Contains(err.Error(), `none.yaml:1:1: missing key "transitions" (a system with rendezvous only may leave it out)`) {
		t.Errorf("a system with no steps: %v", err)
	}
	if errs := gsst.SchemaErrors(t, sch, []byte(head)); errs == nil {
		t.Error("the schema accepts a system with neither transitions nor rendezvous")
	}
}

// hasBroadcast reports whether some transition of sys broadcasts.
func hasBroadcast(sys *gsst.System) bool {
	for i := range sys.Transitions {
		if len(sys.Transitions[i].Broadcast) > 0 {
			return true
		}
	}
	return false
}

// TestSimple: the paper's GSSTs are Simple; a system with any construct
// beyond them is not, even one whose every step is Simple (a shared
// variable no step updates, a parameter in a size only).
func TestSimple(t *testing.T) {
	paper, err := gsst.Load("../specs/readers-writers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !paper.Simple() {
		t.Error("readers-writers is not Simple")
	}
	for _, name := range []string{"threshold", "lock", "pool"} {
		if loadExample(t, name).Simple() {
			t.Errorf("%s is Simple", name)
		}
	}
	unread, err := gsst.Parse("unread.yaml", []byte(`name: unread
states: [N, C]
groups: {p: 2}
init: N
shared:
  v: {type: "0..3", init: 0}
transitions:
  - {from: N, to: C}
  - {from: C, to: N}
`))
	if err != nil {
		t.Fatal(err)
	}
	if unread.Simple() {
		t.Error("a system with a shared variable is Simple")
	}
}
