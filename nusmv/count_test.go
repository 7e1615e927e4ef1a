package nusmv

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

// compileCounts compiles cmp over a system of three local states and two
// groups of the given sizes and returns a NuSMV text whose define
// "result" is the compiled comparison, with the arithmetic counter
// defines that the fallback refers to, and the states' constants.
func compileCounts(sys *gsst.System, cmp presburger.Cmp, limit int) (string, []string, error) {
	nm := newNamer()
	st := []string{nm.fresh("A"), nm.fresh("B"), nm.fresh("C")}
	var procs []proc
	for g, G := range sys.Groups {
		for i := 0; i < G.Size; i++ {
			procs = append(procs, proc{name: nm.fresh(fmt.Sprintf("p_%s_%d", G.Name, i+1)), group: g})
		}
	}
	var defs []string
	name := func(v presburger.Var) (string, error) {
		s, g, ok := sys.Counter(v)
		if !ok {
			return "", fmt.Errorf("no counter %d", v)
		}
		terms := []string{"0"}
		for _, p := range procs {
			if g < 0 || p.group == g {
				terms = append(terms, "toint("+p.name+" = "+st[s]+")")
			}
		}
		n := fmt.Sprintf("arith_%d", v)
		defs = append(defs, "  "+n+" := "+strings.Join(terms, " + ")+";\n")
		return n, nil
	}
	cc := newCountCompiler(sys, procs, st, nm, arith(name, func(presburger.Var) int64 { return int64(len(procs)) }))
	cc.limit = limit
	f, err := cc.atom(cmp)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	b.WriteString("MODULE main\nVAR\n")
	for _, p := range procs {
		b.WriteString("  " + p.name + " : {" + strings.Join(st, ", ") + "};\n")
	}
	if len(procs) == 0 {
		b.WriteString("  dummy : boolean;\n")
	}
	b.WriteString("DEFINE\n")
	for _, d := range append(defs, cc.defs...) {
		b.WriteString(d)
	}
	b.WriteString("  result := " + f.s + ";\n")
	return b.String(), st, nil
}

// TestCountCompiler checks the Boolean form of count comparisons against
// arithmetic, exhaustively: every comparison operator, constants from -3
// to 6, terms over total and group counters with coefficients -2..2, on
// every configuration of two groups of 0..3 and 0..2 processes, with the
// decision DEFINEs and with the arithmetic fallback (limit 0).
func TestCountCompiler(t *testing.T) {
	ops := []presburger.Op{presburger.Eq, presburger.Ne, presburger.Lt, presburger.Le, presburger.Gt, presburger.Ge}
	type mono struct {
		state, group int // group -1: total counter
		coef         int64
	}
	terms := [][]mono{
		{{0, -1, 1}},                         // #A
		{{1, 0, 1}},                          // #B[g1]
		{{0, -1, 1}, {2, -1, 1}},             // #A + #C
		{{0, 1, 1}, {1, -1, 1}},              // #A[g2] + #B
		{{0, -1, 2}, {1, -1, -1}},            // 2*#A - #B
		{{0, -1, 1}, {0, 0, -1}},             // #A - #A[g1]: #A[g2]
		{{2, -1, -1}},                        // -#C
		{{0, -1, 1}, {1, -1, 1}, {2, -1, 1}}, // every process: a constant
		{{1, 0, 2}, {1, 1, 1}, {2, -1, -2}},  // mixed weights per group
	}
	cases, checked := 0, 0
	for s1 := 0; s1 <= 3; s1++ {
		for s2 := 0; s2 <= 2; s2++ {
			sys, err := gsst.New(&gsst.Spec{States: []string{"A", "B", "C"}, Groups: []gsst.Group{{Name: "g1", Size: s1}, {Name: "g2", Size: s2}},
				Init: [][]int{{s1, 0, 0}, {s2, 0, 0}}})
			if err != nil {
				t.Fatal(err)
			}
			n := s1 + s2
			for _, tm := range terms {
				var term presburger.Term
				for _, m := range tm {
					v := sys.TotalVar(m.state)
					if m.group >= 0 {
						v = sys.GroupVar(m.state, m.group)
					}
					term = term.Add(presburger.VarTerm(v).Scale(m.coef))
				}
				for _, op := range ops {
					for k := int64(-3); k <= 6; k++ {
						cmp := presburger.Cmp{T: term.Add(presburger.ConstTerm(-k)), Op: op}
						for _, limit := range []int{countNodeLimit, 0} {
							cases++
							text, st, err := compileCounts(sys, cmp, limit)
							if err != nil {
								t.Fatal(err)
							}
							if limit > 0 && strings.Contains(text, "result := arith") {
								t.Fatalf("%v over %d+%d processes fell back to arithmetic", cmp, s1, s2)
							}
							sm, err := parseSMV(text)
							if err != nil {
								t.Fatalf("parse: %v\n%s", err, text)
							}
							// Every configuration of the n processes.
							cfg := make([]int, n)
							for {
								cur := make([]value, len(sm.vars))
								counts := make([][]int64, 3) // counts[s][g]
								for s := range counts {
									counts[s] = make([]int64, 2)
								}
								for i, s := range cfg {
									cur[i] = value{k: vSym, s: st[s]}
									g := 0
									if i >= s1 {
										g = 1
									}
									counts[s][g]++
								}
								if n == 0 {
									cur = []value{boolVal(false)}
								}
								got, err := sm.env(cur, nil, nil).boolOf(&node{op: "id", name: "result"})
								if err != nil {
									t.Fatalf("%v: %v\n%s", cmp, err, text)
								}
								val := cmp.T.Const
								for _, m := range tm {
									c := counts[m.state][0] + counts[m.state][1]
									if m.group >= 0 {
										c = counts[m.state][m.group]
									}
									val += m.coef * c
								}
								if want := op.Holds(val); got != want {
									t.Fatalf("%s (limit %d) with g1=%d, g2=%d processes in %v: compiled %v, arithmetic %v\n%s",
										presburger.Format(cmp, sys.VarName), limit, s1, s2, cfg, got, want, text)
								}
								checked++
								i := 0
								for i < n && cfg[i] == 2 {
									cfg[i] = 0
									i++
								}
								if i == n {
									break
								}
								cfg[i]++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d compiled comparisons, %d evaluations, all equal to arithmetic", cases, checked)
}

// TestArithmeticFallback runs the concrete emitter with the Boolean form
// disabled (every comparison falls back to arithmetic over the counter
// defines) through the interpreter's whole check on random systems, so
// that the fallback is as checked as the default.
func TestArithmeticFallback(t *testing.T) {
	old := countNodeLimit
	countNodeLimit = 0
	t.Cleanup(func() { countNodeLimit = old })
	r := rand.New(rand.NewSource(4242))
	arithmetic := 0
	for i := 0; i < 40; i++ {
		sys := randomSystem(r, 4)
		text, err := Concrete(sys, Version("test"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "toint(") {
			arithmetic++
		}
		if _, err := checkConcreteText(sys, text, maxBox); err != nil {
			t.Fatalf("%v\n%s\n%s", err, testsupport.Describe(sys), text)
		}
	}
	if arithmetic < 20 {
		t.Fatalf("only %d of 40 models use the arithmetic fallback", arithmetic)
	}
}
