package gsst_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The meaning of guards and updates over parameters and shared
// variables, checked against a reference built with the text: random
// expressions are drawn together with a Go function that evaluates them
// (independently of the parser and checker), and the formulas and
// assignments Parse gives must agree with those functions everywhere
// they are sampled.

// extEnv is one valuation of the variables the random expressions read.
type extEnv struct {
	t, f       int64
	k, c       int64 // k: 0..3, c: 0..
	lock, b    bool
	turn, last int64 // enumeration [reader, writer]
	total      [2]int64
	group      [2][2]int64 // [state][group]
}

type intGen func(e *extEnv) int64
type boolGen func(e *extEnv) bool

type exprGen struct {
	r        *rand.Rand
	counters bool // counters may appear (not in updates)
}

func (g *exprGen) int(depth int) (string, intGen) {
	if depth <= 0 || g.r.Intn(3) == 0 {
		switch k := g.r.Intn(8); {
		case k == 0:
			v := int64(g.r.Intn(5))
			return fmt.Sprint(v), func(*extEnv) int64 { return v }
		case k == 1:
			return "t", func(e *extEnv) int64 { return e.t }
		case k == 2:
			return "f", func(e *extEnv) int64 { return e.f }
		case k == 3:
			return "k", func(e *extEnv) int64 { return e.k }
		case k == 4 || !g.counters:
			return "c", func(e *extEnv) int64 { return e.c }
		case k == 5:
			s := g.r.Intn(2)
			return "#" + "AB"[s:s+1], func(e *extEnv) int64 { return e.total[s] }
		default:
			s, h := g.r.Intn(2), g.r.Intn(2)
			return fmt.Sprintf("#%s[%s]", "AB"[s:s+1], []string{"g", "h"}[h]), func(e *extEnv) int64 { return e.group[s][h] }
		}
	}
	x, fx := g.int(depth - 1)
	y, fy := g.int(depth - 1)
	switch g.r.Intn(5) {
	case 0:
		return "(" + x + " + " + y + ")", func(e *extEnv) int64 { return fx(e) + fy(e) }
	case 1:
		return "(" + x + " - " + y + ")", func(e *extEnv) int64 { return fx(e) - fy(e) }
	case 2:
		k := int64(g.r.Intn(4))
		return fmt.Sprintf("%d*%s", k, x), func(e *extEnv) int64 { return k * fx(e) }
	case 3:
		return "-" + x, func(e *extEnv) int64 { return -fx(e) }
	}
	return "(" + x + ")", fx
}

var extCmps = []struct {
	op string
	f  func(a, b int64) bool
}{
	{"=", func(a, b int64) bool { return a == b }}, {"!=", func(a, b int64) bool { return a != b }},
	{"<", func(a, b int64) bool { return a < b }}, {"<=", func(a, b int64) bool { return a <= b }},
	{">", func(a, b int64) bool { return a > b }}, {">=", func(a, b int64) bool { return a >= b }},
}

// enumValue draws a value of the enumeration: a constant or a variable.
func (g *exprGen) enumValue() (string, intGen) {
	switch g.r.Intn(4) {
	case 0:
		return "reader", func(*extEnv) int64 { return 0 }
	case 1:
		return "writer", func(*extEnv) int64 { return 1 }
	case 2:
		return "turn", func(e *extEnv) int64 { return e.turn }
	}
	return "last", func(e *extEnv) int64 { return e.last }
}

// boolValue draws true, false or a boolean variable.
func (g *exprGen) boolValue() (string, boolGen) {
	switch g.r.Intn(4) {
	case 0:
		return "true", func(*extEnv) bool { return true }
	case 1:
		return "false", func(*extEnv) bool { return false }
	case 2:
		return "lock", func(e *extEnv) bool { return e.lock }
	}
	return "b", func(e *extEnv) bool { return e.b }
}

func (g *exprGen) bool(depth int) (string, boolGen) {
	if depth <= 0 || g.r.Intn(3) == 0 {
		switch g.r.Intn(5) {
		case 0:
			return g.boolValue()
		case 1:
			x, fx := g.int(depth - 1)
			y, fy := g.int(depth - 1)
			c := extCmps[g.r.Intn(len(extCmps))]
			return x + " " + c.op + " " + y, func(e *extEnv) bool { return c.f(fx(e), fy(e)) }
		case 2:
			x, fx := g.enumValue()
			y, fy := g.enumValue()
			if g.r.Intn(2) == 0 {
				return x + " = " + y, func(e *extEnv) bool { return fx(e) == fy(e) }
			}
			return x + " != " + y, func(e *extEnv) bool { return fx(e) != fy(e) }
		case 3:
			// A comparison of booleans needs a variable on one side.
			x, fx := []string{"lock", "b"}[g.r.Intn(2)], func(e *extEnv) bool { return e.lock }
			if x == "b" {
				fx = func(e *extEnv) bool { return e.b }
			}
			y, fy := g.boolValue()
			if g.r.Intn(2) == 0 {
				x, y = y, x
				fx, fy = fy, fx
			}
			if g.r.Intn(2) == 0 {
				return x + " = " + y, func(e *extEnv) bool { return fx(e) == fy(e) }
			}
			return x + " != " + y, func(e *extEnv) bool { return fx(e) != fy(e) }
		}
		x, fx := g.int(depth - 1)
		return "(" + x + " >= 1)", func(e *extEnv) bool { return fx(e) >= 1 }
	}
	x, fx := g.bool(depth - 1)
	y, fy := g.bool(depth - 1)
	switch g.r.Intn(4) {
	case 0:
		return "(" + x + " & " + y + ")", func(e *extEnv) bool { return fx(e) && fy(e) }
	case 1:
		return "(" + x + " | " + y + ")", func(e *extEnv) bool { return fx(e) || fy(e) }
	case 2:
		return "(" + x + " -> " + y + ")", func(e *extEnv) bool { return !fx(e) || fy(e) }
	}
	return "!(" + x + ")", func(e *extEnv) bool { return !fx(e) }
}

// assignment is the reference of one update: the value each variable
// gets, by name (the same names VarName gives).
type assignment map[string]func(e *extEnv) int64

func (g *exprGen) update() (string, assignment) {
	out := assignment{}
	var parts []string
	for _, v := range g.r.Perm(5)[:1+g.r.Intn(5)] {
		switch v {
		case 0, 1:
			name := []string{"k", "c"}[v]
			x, fx := g.int(2)
			parts = append(parts, name+" := "+x)
			out[name] = fx
		case 2, 3:
			name := []string{"lock", "b"}[v-2]
			x, fx := g.boolValue()
			parts = append(parts, name+" := "+x)
			out[name] = func(e *extEnv) int64 { return b2i(fx(e)) }
		default:
			x, fx := g.enumValue()
			parts = append(parts, "turn := "+x)
			out["turn"] = fx
		}
	}
	return strings.Join(parts, "; "), out
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// extPairs are the transitions of the random specs.
var extPairs = [][2]string{{"A", "B"}, {"B", "A"}, {"B", "C"}, {"C", "D"}, {"D", "A"}}

// semanticsSpec writes the random spec with the given guards and updates.
func semanticsSpec(guards, updates []string) string {
	var b strings.Builder
	b.WriteString("params: [t, f]\nshared:\n  k: {type: 0..3, init: 0}\n  c: {type: \"0..\", init: 0}\n" +
		"  lock: {type: bool, init: false}\n  b: {type: bool, init: true}\n" +
		"  turn: {type: [reader, writer], init: reader}\n  last: {type: [reader, writer], init: writer}\n" +
		"states: [A, B, C, D]\ngroups: {g: 2, h: t + 1}\ninit: A\ntransitions:\n")
	for j, pr := range extPairs {
		fmt.Fprintf(&b, "  - from: %s\n    to: %s\n    guard: %q\n", pr[0], pr[1], guards[j])
		if updates[j] != "" { // an update of only x := x prints as none
			fmt.Fprintf(&b, "    update: %q\n", updates[j])
		}
	}
	return b.String()
}

func TestGuardUpdateSemantics(t *testing.T) {
	r := rand.New(rand.NewSource(2026))
	const specs = 200
	guards, updates := 0, 0
	for i := range specs {
		type want struct {
			guard boolGen
			upd   assignment
		}
		var wants []want
		var guardTexts, updTexts []string
		for range extPairs {
			ge := &exprGen{r: r, counters: true}
			gt, gf := ge.bool(3)
			ue := &exprGen{r: r}
			ut, uf := ue.update()
			guardTexts, updTexts = append(guardTexts, gt), append(updTexts, ut)
			wants = append(wants, want{gf, uf})
		}
		src := semanticsSpec(guardTexts, updTexts)
		sys, err := gsst.Parse("r.yaml", []byte(src))
		if err != nil {
			t.Fatalf("spec %d does not parse: %v\n%s", i, err, src)
		}
		// The guards as FormatFormula writes them read back the same.
		var printed []string
		for j := range wants {
			printed = append(printed, sys.FormatFormula(sys.Transitions[j].Blocks[0].Guard))
		}
		var printedUpd []string
		for j := range wants {
			printedUpd = append(printedUpd, sys.FormatUpdate(&sys.Transitions[j].Blocks[0].Update))
		}
		again, err := gsst.Parse("r.yaml", []byte(semanticsSpec(printed, printedUpd)))
		if err != nil {
			t.Fatalf("spec %d: the printed guards %q do not parse: %v", i, printed, err)
		}
		for range 20 {
			e := &extEnv{t: int64(r.Intn(4)), f: int64(r.Intn(4)), k: int64(r.Intn(4)), c: int64(r.Intn(6)),
				lock: r.Intn(2) == 0, b: r.Intn(2) == 0, turn: int64(r.Intn(2)), last: int64(r.Intn(2))}
			for s := range 2 {
				for h := range 2 {
					e.group[s][h] = int64(r.Intn(3))
					e.total[s] += e.group[s][h]
				}
			}
			val := func(v presburger.Var) int64 {
				switch sys.VarName(v) {
				case "t":
					return e.t
				case "f":
					return e.f
				case "k":
					return e.k
				case "c":
					return e.c
				case "lock":
					return b2i(e.lock)
				case "b":
					return b2i(e.b)
				case "turn":
					return e.turn
				case "last":
					return e.last
				}
				for s := range 2 {
					if v == sys.TotalVar(s) {
						return e.total[s]
					}
					for h := range 2 {
						if v == sys.GroupVar(s, h) {
							return e.group[s][h]
						}
					}
				}
				t.Fatalf("unexpected variable %s", sys.VarName(v))
				return 0
			}
			for j, w := range wants {
				tr := &sys.Transitions[j]
				blk := &tr.Blocks[0]
				if got, want := presburger.Eval(blk.Guard, val), w.guard(e); got != want {
					t.Fatalf("spec %d, guard %q at %+v: %v, want %v", i, blk.Text, *e, got, want)
				}
				if got, want := presburger.Eval(again.Transitions[j].Blocks[0].Guard, val), w.guard(e); got != want {
					t.Fatalf("spec %d, guard %q printed as %q at %+v: %v, want %v", i, blk.Text, printed[j], *e, got, want)
				}
				guards++
				for _, u := range []*gsst.Update{&blk.Update, &again.Transitions[j].Blocks[0].Update} {
					// Every variable the reference assigns gets its
					// value; one the update leaves out keeps its
					// own (x := x is no write, and not in Assign).
					for name, f := range w.upd {
						at := slices.IndexFunc(u.Assign, func(a gsst.Assign) bool { return sys.VarName(a.Var) == name })
						got := val(sys.SharedVar(slices.IndexFunc(sys.Shared, func(v gsst.Shared) bool { return v.Name == name })))
						if at >= 0 {
							got = u.Assign[at].Value.Eval(val)
						}
						if want := f(e); got != want {
							t.Fatalf("spec %d, update %q: %s gets %d at %+v, want %d", i, u.Text, name, got, *e, want)
						}
						updates++
					}
					for _, a := range u.Assign {
						if _, ok := w.upd[sys.VarName(a.Var)]; !ok || a.Identity() {
							t.Fatalf("spec %d, update %q assigns %s: %s", i, u.Text, sys.VarName(a.Var), sys.FormatUpdate(u))
						}
					}
				}
			}
		}
	}
	t.Logf("%d guard and %d assignment evaluations agree", guards, updates)
}
