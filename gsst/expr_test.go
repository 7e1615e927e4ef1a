package gsst

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// sexpr prints x fully parenthesised, to show how it was grouped.
func sexpr(x Expr) string {
	switch x := x.(type) {
	case *IntLit:
		return x.Lit
	case *NameExpr:
		return x.Name
	case *CounterExpr:
		if x.Group != nil {
			return "#" + x.State.Name + "[" + x.Group.Name + "]"
		}
		return "#" + x.State.Name
	case *ParenExpr:
		return sexpr(x.X)
	case *UnaryExpr:
		return "(" + x.Op.String() + " " + sexpr(x.X) + ")"
	case *BinaryExpr:
		return "(" + sexpr(x.X) + " " + x.Op.String() + " " + sexpr(x.Y) + ")"
	case *UntilExpr:
		q := "E"
		if x.All {
			q = "A"
		}
		return q + "[" + sexpr(x.L) + " U " + sexpr(x.R) + "]"
	}
	return fmt.Sprintf("?%T", x)
}

func TestPrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"AG p -> q", "((AG p) -> q)"},
		{"!a & b", "((! a) & b)"},
		{"a | b & c", "(a | (b & c))"},
		{"a & b | c", "((a & b) | c)"},
		{"a -> b -> c", "(a -> (b -> c))"},
		{"a | b -> c | d", "((a | b) -> (c | d))"},
		{"a && b || c", "((a & b) | c)"},
		{"!#C = 0", "(! (#C = 0))"},
		{"! !x", "(! (! x))"},
		{"AG #C <= 1", "(AG (#C <= 1))"},
		{"AG EF #C = 1 & x", "((AG (EF (#C = 1))) & x)"},
		{"EX AX p | q", "((EX (AX p)) | q)"},
		{"AG (p -> q)", "(AG (p -> q))"},
		{"1 + 2 * 3 = 7", "((1 + (2 * 3)) = 7)"},
		{"a - b - c > 0", "(((a - b) - c) > 0)"},
		{"-#C + 1 == -2", "(((- #C) + 1) = (- 2))"},
		{"- -1 != 1", "((- (- 1)) != 1)"},
		{"2*#C <= #T*3", "((2 * #C) <= (#T * 3))"},
		{"#T[writer] >= n - 1", "(#T[writer] >= (n - 1))"},
		{"A[p U q] -> E[a & b U !c]", "(A[p U q] -> E[(a & b) U (! c)])"},
		{"A[p U A[q U r]]", "A[p U A[q U r]]"},
		{"(a)", "a"},
		{"a < b & c > d", "((a < b) & (c > d))"},
		{"a->b", "(a -> b)"},
		{"#C[ g ]= 0", "(#C[g] = 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			x, err := ParseExpr(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if got := sexpr(x); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct {
		src  string
		col  int
		want string
	}{
		{"", 1, "empty expression"},
		{"   ", 4, "empty expression"},
		{"a < b < c", 7, "do not associate"},
		{"a = b != c", 7, "do not associate"},
		{"(a", 3, `expected \), found end`},
		{"a)", 2, `expected operator or end of expression, found "\)"`},
		{"#", 2, "expected a state name right after #"},
		{"#1", 2, "expected a state name right after #"},
		{"#C[", 4, "expected a group name"},
		{"#C[g", 5, `expected \]`},
		{"a & & b", 5, "expected operand"},
		{"AG", 3, "expected operand"},
		{"A[p q]", 5, "expected U"},
		{"E[p U q", 8, `expected \] closing E\[p U q\]`},
		{"1 $ 2", 3, "unexpected '\\$'"},
		{"é + 1", 1, "unexpected 'é'"},
		{"1 + é", 5, "unexpected 'é'"},
		{"x = \xff", 5, "unexpected byte 0xff"},
		{"12ab = 1", 1, `malformed integer "12ab"`},
		{"a -> ", 6, "expected operand"},
		{strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000), 0, "nested too deeply"},
		{strings.Repeat("!", 1000) + "a", 0, "nested too deeply"},
		{strings.Repeat("-", 1000) + "1", 0, "nested too deeply"},
	}
	for _, tt := range tests {
		name := tt.src
		if len(name) > 20 {
			name = name[:20]
		}
		t.Run(name, func(t *testing.T) {
			_, err := ParseExpr(tt.src)
			if err == nil {
				t.Fatal("no error")
			}
			list := err.(ErrorList)
			if len(list) != 1 {
				t.Fatalf("got %d errors, want 1: %v", len(list), err)
			}
			e := list[0]
			if tt.col != 0 && (e.Pos.Line != 1 || e.Pos.Col != tt.col) {
				t.Errorf("error at %v, want 1:%d: %v", e.Pos, tt.col, e)
			}
			if !regexp.MustCompile(tt.want).MatchString(e.Msg) {
				t.Errorf("error %q does not match %q", e.Msg, tt.want)
			}
		})
	}
}

// guardSystem is the system the guard tests are checked against: three
// states and two groups, r of size 1 and w of size 2, so n = 3.
const guardSystem = `
states: [N, T, C]
groups: {r: 1, w: 2}
init: N
transitions:
  - {from: T, to: C, guard: %q}
`

// configs calls f with every configuration of sys (y[g][s] processes of
// group g in state s).
func configs(sys *System, f func(y [][]int)) {
	y := make([][]int, len(sys.Groups))
	for g := range y {
		y[g] = make([]int, len(sys.States))
	}
	var rec func(g, s, left int)
	rec = func(g, s, left int) {
		switch {
		case g == len(sys.Groups):
			f(y)
		case s == len(sys.States)-1:
			y[g][s] = left
			if g+1 < len(sys.Groups) {
				rec(g+1, 0, sys.Groups[g+1].Size)
			} else {
				rec(g+1, 0, 0)
			}
		default:
			for k := 0; k <= left; k++ {
				y[g][s] = k
				rec(g, s+1, left-k)
			}
		}
	}
	rec(0, 0, sys.Groups[0].Size)
}

// TestGuardSemantics checks parsed guards against Go predicates on every
// configuration of a small system.
func TestGuardSemantics(t *testing.T) {
	const N, T, C = 0, 1, 2
	const r, w = 0, 1
	tot := func(y [][]int, s int) int { return y[r][s] + y[w][s] }
	tests := []struct {
		guard string
		want  func(y [][]int) bool
	}{
		{"#C = 0", func(y [][]int) bool { return tot(y, C) == 0 }},
		{"#C == 0 && #T[w] = 0", func(y [][]int) bool { return tot(y, C) == 0 && y[w][T] == 0 }},
		{"#C = 0 & #T = 2", func(y [][]int) bool { return tot(y, C) == 0 && tot(y, T) == 2 }},
		{"#N = n", func(y [][]int) bool { return tot(y, N) == 3 }},
		{"#N <= n - 1", func(y [][]int) bool { return tot(y, N) <= 2 }},
		{"#T >= 2", func(y [][]int) bool { return tot(y, T) >= 2 }},
		{"#T > 1 | #C < 1", func(y [][]int) bool { return tot(y, T) > 1 || tot(y, C) < 1 }},
		{"#T != 1", func(y [][]int) bool { return tot(y, T) != 1 }},
		{"!(#T = 1) -> #C[r] = 1", func(y [][]int) bool { return tot(y, T) == 1 || y[r][C] == 1 }},
		{"#T = 1 -> #C = 1 -> #N = 1", func(y [][]int) bool { return tot(y, T) != 1 || tot(y, C) != 1 || tot(y, N) == 1 }},
		{"2*#C + #T*3 - #N >= 3", func(y [][]int) bool { return 2*tot(y, C)+3*tot(y, T)-tot(y, N) >= 3 }},
		{"-(#C - #T) < -#N + 1", func(y [][]int) bool { return -(tot(y, C) - tot(y, T)) < -tot(y, N)+1 }},
		{"2*(#C + 1)*3 = 6*#C + 6", func(y [][]int) bool { return true }},
		{"#T[r] + #T[w] = #T", func(y [][]int) bool { return true }},
		{"#N[w] + #T[w] + #C[w] = 2", func(y [][]int) bool { return true }},
		{"true", func(y [][]int) bool { return true }},
		{"false | #C[w] = 2", func(y [][]int) bool { return y[w][C] == 2 }},
		{"!#C[w] = 2 & !false", func(y [][]int) bool { return y[w][C] != 2 }},
		{"(#N[r] = 1) | (#C[r] = 1 & #C[w] >= 1)", func(y [][]int) bool { return y[r][N] == 1 || y[r][C] == 1 && y[w][C] >= 1 }},
		{"1000000000*#C < 1000000000", func(y [][]int) bool { return tot(y, C) == 0 }},
		{"0*#C = 0", func(y [][]int) bool { return true }},
		{"3 < 2", func(y [][]int) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.guard, func(t *testing.T) {
			sys, err := Parse("g.yaml", []byte(fmt.Sprintf(guardSystem, tt.guard)))
			if err != nil {
				t.Fatal(err)
			}
			f := sys.Transitions[0].Blocks[0].Guard
			n := 0
			configs(sys, func(y [][]int) {
				n++
				if got, want := presburger.Eval(f, sys.Valuation(y, nil)), tt.want(y); got != want {
					t.Errorf("config %v: guard %s is %v, want %v", y, presburger.Format(f, sys.VarName), got, want)
				}
			})
			if n != 18 { // 3 placements of the reader times 6 of the two writers
				t.Fatalf("enumerated %d configurations, want 18", n)
			}
			// Printing the guard and parsing it again gives the same
			// function.
			again, err := Parse("g.yaml", []byte(fmt.Sprintf(guardSystem, presburger.Format(f, sys.VarName))))
			if err != nil {
				t.Fatalf("reparse of %q: %v", presburger.Format(f, sys.VarName), err)
			}
			g := again.Transitions[0].Blocks[0].Guard
			configs(sys, func(y [][]int) {
				if presburger.Eval(f, sys.Valuation(y, nil)) != presburger.Eval(g, sys.Valuation(y, nil)) {
					t.Errorf("config %v: reparsed guard %s differs", y, presburger.Format(g, sys.VarName))
				}
			})
		})
	}
}

func TestPropertyFormulas(t *testing.T) {
	const src = `
states: [N, T, C]
groups: {proc: 3}
init: N
transitions: []
properties:
  z: "AG #C <= 1"
  a: "AG #C = 0 -> #T = 1"
  m: "EF #C = 1"
  b: "!AG #C = 0 & #T = n"
  c: "A[#N >= 1 U #C = 1] | E[true U EX #T = 2]"
  d: "AF AX EG #N = n - 0 -> #C = 0 -> #T = 0"
  e: "#C = 0 & #T = 0"
`
	sys, err := Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, ctl string }{
		{"z", "AG (#C <= 1)"},
		{"a", "(AG (#C = 0) -> (#T = 1))"},
		{"m", "EF (#C = 1)"},
		{"b", "(!AG (#C = 0) & (#T = 3))"},
		{"c", "(A[(#N >= 1) U (#C = 1)] | E[(true) U EX (#T = 2)])"},
		{"d", "(AF AX EG (#N = 3) -> (#C != 0 | #T = 0))"},
		{"e", "(#C = 0 & #T = 0)"},
	}
	if len(sys.Properties) != len(want) {
		t.Fatalf("got %d properties, want %d", len(sys.Properties), len(want))
	}
	for i, w := range want {
		p := sys.Properties[i]
		if p.Name != w.name {
			t.Errorf("property %d is %q, want %q (file order)", i, p.Name, w.name)
		}
		if got := ctl.Format(p.Formula, sys.VarName); got != w.ctl {
			t.Errorf("property %s: got %s, want %s", p.Name, got, w.ctl)
		}
		for _, a := range ctl.Atoms(p.Formula) {
			if !sys.IsTotal(a) {
				t.Errorf("property %s: atom over group counters", p.Name)
			}
		}
	}
}
