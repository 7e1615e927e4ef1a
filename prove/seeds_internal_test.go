package prove

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// TestSeedValues checks seedValues, the values seeds give a variable in
// a seeding phase, against the closure of the seeds computed value by
// value: on random rules (increments 1 to 3, guards of one or two atoms
// on x with constants up to 6, or none) over domains with a greatest
// value from 1 to 60 or none (the closure then computed up to 200),
// and on a table of the forms translations write. An interval
// reported must be exactly the values reached; a refusal must be of
// values that are no interval. Before the domain's greatest value was
// read, 0..1000 with an unguarded "x := x + 1" was read as 0..3.
func TestSeedValues(t *testing.T) {
	x := presburger.Var(0)
	atom := func(op presburger.Op, k int64) presburger.Formula {
		return presburger.Compare(presburger.VarTerm(x), op, presburger.ConstTerm(k))
	}
	table := []struct {
		name  string
		hi    int // the domain's greatest value, -1 for none
		rules []seedRule
		want  string
	}{
		{"free", -1, []seedRule{{1, presburger.True}}, "0.."},
		{"free, bounded", 1000, []seedRule{{1, presburger.True}}, "0..1000"},
		{"up to 5", -1, []seedRule{{1, atom(presburger.Lt, 5)}}, "0..5"},
		{"by 2", -1, []seedRule{{2, presburger.True}}, "none"},
		{"by 2, bounded", 1000, []seedRule{{2, presburger.True}}, "none"},
		{"1 first, then 2", -1, []seedRule{{1, atom(presburger.Eq, 0)}, {2, presburger.True}}, "0.."},
		{"1 first, then 2, bounded", 999, []seedRule{{1, atom(presburger.Eq, 0)}, {2, presburger.True}}, "0..999"},
		{"2 then 1", -1, []seedRule{{2, atom(presburger.Le, 4)}, {1, atom(presburger.Eq, 6)}}, "none"},
	}
	for _, c := range table {
		v := seedVar(c.hi)
		if got := describeSeedValues(v, x, c.rules); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	r := rand.New(rand.NewSource(41))
	ops := []presburger.Op{presburger.Eq, presburger.Le, presburger.Lt, presburger.Ge, presburger.Gt}
	intervals, refused := 0, 0
	for i := range 3000 {
		hi := -1
		if r.Intn(2) == 0 {
			hi = 1 + r.Intn(60)
		}
		var rules []seedRule
		for range 1 + r.Intn(3) {
			g := presburger.Formula(presburger.True)
			for range r.Intn(3) {
				g = presburger.Conj(g, atom(ops[r.Intn(len(ops))], int64(r.Intn(7))))
			}
			rules = append(rules, seedRule{c: int64(1 + r.Intn(3)), guard: g})
		}
		v := seedVar(hi)
		end := 200
		if hi >= 0 {
			end = hi
		}
		reached := make([]bool, end+1)
		reached[0] = true
		for k := range end + 1 {
			for _, rule := range rules {
				if n := k + int(rule.c); reached[k] && n <= end && presburger.Eval(rule.guard, func(presburger.Var) int64 { return int64(k) }) {
					reached[n] = true
				}
			}
		}
		top, noHi, ok := seedValues(v, x, rules)
		if !ok {
			refused++
			last := 0
			for last < end && reached[last+1] {
				last++
			}
			interval := true
			for k := last + 1; k <= end; k++ {
				interval = interval && !reached[k]
			}
			// Refused although the values computed here are an
			// interval: only an unbounded domain may hide a value
			// past end that breaks it, which the closure here would not
			// see; a bounded one must not be refused.
			if interval && hi >= 0 {
				t.Errorf("case %d (%s): refused, but the values are 0..%d", i, describeRules(rules, hi), last)
			}
			continue
		}
		intervals++
		for k := 0; k <= end; k++ {
			want := noHi || int64(k) <= top
			if reached[k] != want {
				t.Errorf("case %d (%s): read as %s, but %d is reached: %v", i, describeRules(rules, hi), describeSeedValues(v, x, rules), k, reached[k])
				break
			}
		}
	}
	if intervals == 0 || refused == 0 {
		t.Errorf("%d intervals, %d refused: both kinds expected", intervals, refused)
	}
}

// seedVar is an integer variable from 0, up to hi (-1: without end).
func seedVar(hi int) *gsst.Shared {
	if hi < 0 {
		return &gsst.Shared{Name: "x", Unbounded: true}
	}
	return &gsst.Shared{Name: "x", Hi: hi}
}

func describeSeedValues(v *gsst.Shared, x presburger.Var, rules []seedRule) string {
	hi, noHi, ok := seedValues(v, x, rules)
	switch {
	case !ok:
		return "none"
	case noHi:
		return "0.."
	}
	return fmt.Sprintf("0..%d", hi)
}

func describeRules(rules []seedRule, hi int) string {
	s := fmt.Sprintf("domain up to %d:", hi)
	for _, r := range rules {
		s += fmt.Sprintf(" +%d where %s;", r.c, presburger.Format(r.guard, func(presburger.Var) string { return "x" }))
	}
	return s
}
