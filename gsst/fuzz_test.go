package gsst

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// fuzzSeeds returns the bundled specs and the error test files.
func fuzzSeeds(f testing.TB) [][]byte {
	var out [][]byte
	for _, pat := range []string{"../specs/*.yaml", "testdata/errors/*.yaml", "testdata/constructs/*.yaml"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, src)
		}
	}
	if len(out) == 0 {
		f.Fatal("no seed files")
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, src := range fuzzSeeds(f) {
		f.Add(src)
	}
	f.Add([]byte(""))
	f.Add([]byte("states: [N]\n---\n"))
	f.Add([]byte("states: &a [N]\ninit: *a\n"))
	f.Add([]byte("states: [N, T]\ngroups: {p: 1}\ninit: N\ntransitions:\n  - from: N\n    to: T\n    guard: |\n      #T = 0 &\n        #N = 1\n"))
	f.Add([]byte("states: [N, T]\ngroups: {p: 1.., q: 2..4, r: \"3..\"}\ninit: {p: N, q: T, r: N}\ntransitions:\n  - {from: N, to: T, guard: \"#T < n - 1 & 2*n > #N[q]\"}\nproperties:\n  a: \"AG #T <= n\"\n"))
	f.Add([]byte(fairSpec))
	f.Add([]byte("params: [f]\nshared: {a: {type: \"0..\", init: \"1..\"}, b: {type: \"0..\", init: 0..f}, c: {type: 0..3, init: \"..2\"}, d: {type: \"0..\", init: \"f..2*f + 1\"}}\nstates: [A, B]\ngroups: {p: 2}\ninit: A\ntransitions:\n  - {from: A, to: B, guard: \"a >= f\", update: \"a := a + 1\"}\nproperties: {p: \"AG b <= f\"}\n"))
	// Beyond the paper: every construct, in block and flow style.
	f.Add([]byte("params: [n, t]\nassume: \"n > 2*t\"\nshared: {x: {type: \"0..\", init: 0}, b: {type: bool, init: true}, e: {type: [u, v], init: v}}\nstates: [A, B]\ngroups: {p: n - t, q: 1..}\ninit: A\ntransitions:\n  - {from: A, to: B, guard: \"x >= t & b & e = u\", update: \"x := x + 1; b := false; e := v\", broadcast: [\"B -> A [q]\"]}\n  - {from: B, to: A, update: {p: \"x := t\", q: \"b := b\"}}\nrendezvous:\n  - {parts: [{from: A, to: B}, {from: A, to: B, groups: [q]}], guard: \"#A >= 2\", update: \"x := 0\"}\nproperties: {a: \"AG x >= 0\"}\n"))
	f.Add([]byte("shared:\n  k: {type: -3..3, init: -1}\nstates: [A, B]\ngroups: {p: 2}\ninit: A\ntransitions:\n  - from: A\n    to: B\n    update: \"k := 2*k - 1;\"\n    broadcast:\n      - B -> A\n"))
	// Misindented keys (hints at the key).
	f.Add([]byte("shared: {x: {type: \"0..\", init: 0}}\nstates: [A, B]\ngroups: {p: 2, q: 1}\ninit: A\ntransitions:\n  - {name: r1, from: A, to: B, guard: \"x = 0\"}\n  - {name: r2, from: A, to: B, update: \"x := x + 1\"}\n  - {name: stay, from: B, to: B, broadcast: [A -> B]}\n  - {from: A, to: A}\nrendezvous:\n  - {name: pair, parts: [{from: A, to: A}, {from: B, to: A, groups: [q]}], broadcast: [\"B -> A [p]\"]}\nenvironment:\n  - {name: tick, guard: \"x < 3\", update: \"x := x + 1\"}\n  - {broadcast: [B -> A]}\nfairness:\n  weak: [r1, \"r2 [*]\", all]\n"))
	f.Add([]byte("name: x\nstates: [N, T]\ngroups:\n  p: 1\n   q: 2\ninit: N\n"))
	f.Add([]byte("name: x\nstates: [N, T]\ngroups:\n    p: 1\n  q: 1\ninit: N\n"))
	f.Add([]byte("name: x\nstates: [N]\ngroups: {p: 1}\ninit: N\ntransitions:\n  - from: N\n     to: N\n    guard: |\n      #N = 1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Parse("f.yaml", src)
		if err != nil {
			if sys != nil {
				t.Fatal("system returned with errors")
			}
			list, ok := err.(ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for i, e := range list {
				if e.Pos.File != "f.yaml" || e.Msg == "" {
					t.Fatalf("bad error %#v", e)
				}
				if i > 0 && (list[i-1].Pos.Line > e.Pos.Line || list[i-1].Pos.Line == e.Pos.Line && list[i-1].Pos.Col > e.Pos.Col) {
					t.Fatalf("errors not sorted:\n%v", err)
				}
			}
			return
		}
		checkSystem(t, sys)
	})
}

// checkSystem checks the invariants every accepted System must satisfy.
func checkSystem(t *testing.T, sys *System) {
	t.Helper()
	if errs := sys.rules(nil); len(errs) > 0 {
		t.Fatalf("parsed system breaks the rules of New: %v", errs)
	}
	if len(sys.States) == 0 || len(sys.Groups) == 0 {
		t.Fatalf("accepted system without states or groups")
	}
	if n := sys.N(); n < 1 || n > MaxProcesses {
		t.Fatalf("n = %d", n)
	}
	for g, row := range sys.Init {
		sum := 0
		for _, k := range row {
			if k < 0 {
				t.Fatalf("negative init count")
			}
			sum += k
		}
		if sum != sys.Groups[g].Size {
			t.Fatalf("init of group %d places %d of %d", g, sum, sys.Groups[g].Size)
		}
	}
	seen := map[[2]int]string{}
	for i := range sys.Transitions {
		tr := &sys.Transitions[i]
		if prev, dup := seen[[2]int{tr.From, tr.To}]; dup && (prev == "" || tr.Name == "") {
			t.Fatalf("two transitions join the same states without names")
		}
		seen[[2]int{tr.From, tr.To}] = tr.Name
		owner := map[int]bool{}
		for _, b := range tr.Blocks {
			for _, g := range b.Groups {
				if g < 0 || g >= len(sys.Groups) || owner[g] {
					t.Fatalf("bad or repeated group %d in blocks", g)
				}
				owner[g] = true
			}
			for _, v := range presburger.FreeVars(b.Guard) {
				_, shared := sys.SharedOf(v)
				k, param := sys.ParamOf(v)
				if int(v) >= sys.NumVars() && !(sys.Parametric() && v == sys.NVar()) && !shared && !(param && !sys.Params[k].Fixed) {
					t.Fatalf("guard uses variable %d outside the system", v)
				}
			}
			for _, a := range b.Update.Assign {
				if _, ok := sys.SharedOf(a.Var); !ok {
					t.Fatalf("update assigns variable %d, not a shared variable", a.Var)
				}
			}
		}
	}
	for j := range sys.Shared {
		if v := &sys.Shared[j]; !v.Contains(v.Init) {
			t.Fatalf("shared variable %s starts outside its domain", v.Name)
		}
	}
	if sys.Parametric() {
		// The smallest instance (with every parameter 2) is a system
		// too, unless a constant grows beyond the limit once n is known,
		// or the values break the assumption or a size.
		sizes := make([]int, len(sys.Groups))
		for g := range sys.Groups {
			sizes[g] = sys.Groups[g].Size
			if sys.Groups[g].OverParams() {
				sizes[g] = -1
			}
		}
		var inst *System
		var err error
		if len(sys.freeParams()) > 0 {
			values := make([]int, len(sys.Params))
			for k := range values {
				values[k] = 2
			}
			inst, err = sys.InstantiateParams(values, sizes)
		} else {
			inst, err = sys.Instantiate(sizes)
		}
		switch {
		case err == nil && inst.Parametric():
			t.Fatalf("instance is parametric")
		case err == nil:
			checkSystem(t, inst)
		case !errors.Is(err, errkind.Input):
			t.Fatalf("instantiating: %v", err)
		}
	}
	for _, p := range sys.Properties {
		if p.Formula == nil {
			t.Fatalf("property %s without formula", p.Name)
		}
	}
}

func FuzzUpdate(f *testing.F) {
	for _, s := range []string{"x := x + 1", "a := b; b := a;", "k := 2*t - 1; e := u", "x = 1", "x :=", ":= 1", "x := 1;; y := 2",
		"x := (1", "x := #C", "x := AG y", "x := 1 y := 2", "é := 1", "x ::= 1", ";"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := ParseUpdate(s)
		if err != nil {
			if out != nil || len(err.(ErrorList)) != 1 {
				t.Fatalf("bad error result %v", err)
			}
			return
		}
		if len(out) == 0 {
			t.Fatalf("update %q parsed to no assignment", s)
		}
		for _, a := range out {
			if !isName(a.Var.Name) || a.X == nil {
				t.Fatalf("bad assignment %+v in %q", a, s)
			}
		}
	})
}

// exprSystem is the fixed system that FuzzExpr checks expressions against.
func exprSystem(t testing.TB) *System {
	sys, err := Parse("e.yaml", []byte("states: [N, T, C]\ngroups: {r: 1, w: 2}\ninit: N\ntransitions: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// checkIn checks x as a guard or property of sys.
func checkIn(sys *System, x Expr, m mode) (value, ErrorList) {
	c := &checker{sys: &sys.spec, states: map[string]int{}, groups: map[string]int{}}
	for i, s := range sys.States {
		c.states[s] = i
	}
	for i, g := range sys.Groups {
		c.groups[g.Name] = i
	}
	v, ok := c.expr(x, m, "")
	if ok != (len(c.errs) == 0) {
		panic("expr: ok disagrees with the error list")
	}
	return v, c.errs
}

func FuzzExpr(f *testing.F) {
	for _, src := range fuzzSeeds(f) {
		// Every quoted string of the seed files, guards and properties.
		for _, part := range strings.Split(string(src), `"`)[1:] {
			f.Add(part)
		}
	}
	for _, s := range []string{
		"#C = 0 & #T[w] = 0", "AG p -> q", "!a & b", "a | b & c", "a -> b -> c",
		"A[#N >= 1 U #C = 1]", "E[true U AG EF #C = n]", "2*#C + #T*3 <= n - 1",
		"#C + 1000000000 = -1000000000", "1000000000*1000000000*#C = 0", "((((#C))))=0",
		"-(-(#C)) != --1", "# C", "#C[", "A[p", "é", "\xff", "1 < 2 < 3",
		// What people write from LTL and programming languages (hints).
		"G (#C <= 1)", "F #C = 1", "X #C = 0", "[] #C <= 1", "<> #C = 1", "[]", "<>", "#C = 0 U #T = 1",
		"AG (#T > 0 -> F #C > 0)", "#C = 0 and #T = 0", "#C = 0 OR #T = 0", "not (#C = 0)", "#C == 0 && #T != 1",
	} {
		f.Add(s)
	}
	sys := exprSystem(f)
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseExpr(s)
		if err != nil {
			if x != nil || len(err.(ErrorList)) != 1 {
				t.Fatalf("bad error result %v", err)
			}
			return
		}
		// The fully parenthesised form parses, prints the same again and
		// no longer relies on precedence.
		par := Parenthesize(x)
		if y, err := ParseExpr(par); err != nil {
			t.Fatalf("parenthesised %q of %q does not parse: %v", par, s, err)
		} else if again := Parenthesize(y); again != par || ReliesOnPrecedence(y) {
			t.Fatalf("parenthesised %q of %q is not a fixed point: %q", par, s, again)
		}
		if g, errs := checkIn(sys, x, guardMode); len(errs) == 0 && g.kind == kindBool {
			// Printing the guard and parsing it again gives the same
			// function on every configuration.
			text := presburger.Format(g.f, sys.VarName)
			y, err := ParseExpr(text)
			if err != nil {
				t.Fatalf("printed guard %q of %q does not parse: %v", text, s, err)
			}
			h, errs := checkIn(sys, y, guardMode)
			if len(errs) != 0 {
				// Printing can produce constants up to twice
				// MaxConstant ("#C + 1000000000 = -1000000000" prints
				// as "#C = -2000000000"), which the checker refuses.
				if formulaFits(g.f) {
					t.Fatalf("printed guard %q of %q does not check: %v", text, s, errs)
				}
				return
			}
			configs(sys, func(c [][]int) {
				val := sys.Valuation(c, nil)
				if presburger.Eval(g.f, val) != presburger.Eval(h.f, val) {
					t.Fatalf("guard %q printed as %q differs at %v", s, text, c)
				}
			})
		}
		if p, errs := checkIn(sys, x, propMode); len(errs) == 0 && p.kind != kindInt {
			f := p.toCTL()
			text := ctl.Format(f, sys.VarName)
			y, err := ParseExpr(text)
			if err != nil {
				t.Fatalf("printed property %q of %q does not parse: %v", text, s, err)
			}
			q, errs := checkIn(sys, y, propMode)
			if len(errs) != 0 {
				return // constants beyond the limit after printing
			}
			if again := ctl.Format(q.toCTL(), sys.VarName); again != text {
				t.Fatalf("property %q printed as %q reprints as %q", s, text, again)
			}
		}
	})
}
