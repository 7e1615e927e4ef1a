package gsst

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/presburger"
)

// binaryNode gives a binary expression its meaning one node at a time,
// the way the grammar reads: evaluate both operands, then combine them
// with one call of Conj, Disj, Add, ... . It is the reference that chain,
// which folds whole chains of one operator at once, must agree with on
// the result and on every error.
func binaryNode(c *checker, x *BinaryExpr, m mode, where string) (value, bool) {
	l, okL := c.expr(x.X, m, where)
	r, okR := c.expr(x.Y, m, where)
	if !okL || !okR {
		return value{}, false
	}
	switch x.Op {
	case ADD, SUB, MUL:
		if l.kind != kindInt || r.kind != kindInt {
			c.errorf(x.OpPos, "operands of %s must be integer expressions", x.Op)
			return value{}, false
		}
		var t presburger.Term
		switch {
		case x.Op == ADD:
			t = l.t.Add(r.t)
		case x.Op == SUB:
			t = l.t.Sub(r.t)
		case l.t.IsConst():
			t = r.t.Scale(l.t.Const)
		case r.t.IsConst():
			t = l.t.Scale(r.t.Const)
		default:
			c.errorf(x.OpPos, "product of two non-constant expressions; guards are linear (one side of * must be a constant)")
			return value{}, false
		}
		if !fits(t) {
			c.errorf(x.OpPos, "a constant or coefficient after %s exceeds the limit of %d", x.Op, MaxConstant)
			return value{}, false
		}
		return value{kind: kindInt, t: t}, true
	case AND, OR:
		if l.kind == kindInt || r.kind == kindInt {
			c.errorf(x.OpPos, "operands of %s must be conditions, not integer expressions", x.Op)
			return value{}, false
		}
		if l.kind == kindBool && r.kind == kindBool {
			if x.Op == AND {
				return value{kind: kindBool, f: presburger.Conj(l.f, r.f)}, true
			}
			return value{kind: kindBool, f: presburger.Disj(l.f, r.f)}, true
		}
		op := ctl.And
		if x.Op == OR {
			op = ctl.Or
		}
		return value{kind: kindCTL, c: ctl.Binary{Op: op, L: l.toCTL(), R: r.toCTL()}}, true
	}
	return c.combine(x, l, r)
}

// checkBoth checks x with chain and with binaryNode.
func checkBoth(sys *System, x Expr, m mode) (got, want value, gotErrs, wantErrs ErrorList) {
	got, gotErrs = checkIn(sys, x, m)
	c := &checker{sys: &sys.spec, states: map[string]int{}, groups: map[string]int{}, binary: binaryNode}
	for i, s := range sys.States {
		c.states[s] = i
	}
	for i, g := range sys.Groups {
		c.groups[g.Name] = i
	}
	want, _ = c.expr(x, m, "")
	gotErrs.Sort()
	c.errs.Sort()
	return got, want, gotErrs, c.errs
}

// exprGen writes random guard and property strings over exprSystem. It
// follows the types (integer, condition, temporal formula) so that most
// strings check, favours long chains of one operator, and now and then
// puts an operand of the wrong type, an unknown name or a constant that
// overflows somewhere in a chain, so that errors land at every place of
// a chain too.
type exprGen struct {
	r     *rand.Rand
	b     strings.Builder
	props bool // properties: CTL allowed
}

func (g *exprGen) pick(xs ...string) { g.b.WriteString(xs[g.r.Intn(len(xs))]) }

// bad writes an operand that does not check, or checks to another type.
func (g *exprGen) bad() { g.pick("x", "#Z", "#C[q]", "1000000001", "true", "#C", "(AG #C = 0)") }

// chain writes 1 to 4 (at the top sometimes 10 to 39) operands joined by operators of ops, each operand
// written by operand (or, rarely, by bad).
func (g *exprGen) chain(ops []string, operand func()) {
	n := 1 + g.r.Intn(4)
	if g.r.Intn(10) == 0 && g.b.Len() == 0 {
		n = 10 + g.r.Intn(30) // a long chain, only at the top
	}
	for i := range n {
		if i > 0 {
			g.pick(ops...)
		}
		if g.r.Intn(150) == 0 {
			g.bad()
		} else {
			operand()
		}
	}
}

func (g *exprGen) counter() {
	if g.props && g.r.Intn(30) > 0 {
		g.pick("#N", "#T", "#C")
		return
	}
	g.pick("#N", "#T", "#C", "#N[r]", "#T[w]", "#C[r]", "#C[w]")
}

func (g *exprGen) intOperand(depth int) {
	switch r := g.r.Intn(10); {
	case r < 3:
		g.counter()
	case r < 6:
		if g.r.Intn(20) == 0 {
			g.pick("999999999", "500000000") // may overflow in a sum
		} else {
			g.pick("0", "1", "2", "7", "n")
		}
	case r < 7 && depth > 0:
		g.b.WriteString("-")
		g.intOperand(depth - 1)
	case depth > 0:
		g.b.WriteString("(")
		g.intExpr(depth - 1)
		g.b.WriteString(")")
	default:
		g.counter()
	}
}

func (g *exprGen) intExpr(depth int) {
	if g.r.Intn(3) == 0 {
		// A product: constants and, mostly, at most one counter, so
		// that it stays linear.
		counters := 0
		g.chain([]string{" * "}, func() {
			if g.r.Intn(4) == 0 && (counters == 0 || g.r.Intn(10) == 0) {
				counters++
				g.counter()
			} else {
				g.pick("1", "2", "3", "-1", "10")
			}
		})
		return
	}
	g.chain([]string{" + ", " - "}, func() { g.intOperand(depth) })
}

// boolOperand writes an operand of & or |; temporal says whether it may
// be temporal.
func (g *exprGen) boolOperand(depth int, temporal bool) {
	switch r := g.r.Intn(12); {
	case r < 1:
		g.pick("true", "false")
	case r < 7 || depth == 0:
		g.intExpr(depth - 1)
		g.pick(" = ", " != ", " < ", " <= ", " > ", " >= ")
		g.intExpr(depth - 1)
	case r < 8:
		g.b.WriteString("!")
		g.boolOperand(depth-1, temporal)
	case r < 9:
		g.b.WriteString("(")
		g.boolExpr(depth-1, temporal)
		g.b.WriteString(" -> ")
		g.boolExpr(depth-1, temporal)
		g.b.WriteString(")")
	case r < 10 || !temporal:
		g.b.WriteString("(")
		g.boolExpr(depth-1, temporal)
		g.b.WriteString(")")
	case r < 11:
		g.pick("AG ", "AF ", "EG ", "EF ", "AX ", "EX ")
		g.boolOperand(depth-1, temporal)
	default:
		g.pick("A[", "E[")
		g.boolExpr(depth-1, temporal)
		g.b.WriteString(" U ")
		g.boolExpr(depth-1, temporal)
		g.b.WriteString("]")
	}
}

// boolExpr writes a chain of & or |, which may hold chains of the other.
func (g *exprGen) boolExpr(depth int, temporal bool) {
	g.chain([]string{[]string{" & ", " | "}[g.r.Intn(2)]}, func() {
		if g.r.Intn(5) == 0 && depth > 0 {
			// An operand that is itself a chain: "a | b & c & d", or
			// a parenthesised chain of the same operator.
			g.b.WriteString("(")
			g.boolExpr(depth-1, temporal)
			g.b.WriteString(")")
			return
		}
		g.boolOperand(depth, temporal)
	})
}

func (g *exprGen) next(props bool) string {
	g.b.Reset()
	g.props = props
	switch g.r.Intn(4) {
	case 0:
		g.intExpr(2)
	default:
		g.boolExpr(2, props)
	}
	return g.b.String()
}

// equalValues compares two meanings; two terms are equal when they have
// the same monomials, whether an empty list of them is nil or not.
func equalValues(a, b value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindInt:
		return a.t.Equal(b.t)
	case kindBool:
		return reflect.DeepEqual(a.f, b.f)
	}
	return reflect.DeepEqual(a.c, b.c)
}

// TestChainMatchesNodeAtATime cross-checks chain against binaryNode on
// random expressions, in guards and in properties: same meaning, same
// errors at the same positions.
func TestChainMatchesNodeAtATime(t *testing.T) {
	sys := exprSystem(t)
	g := &exprGen{r: rand.New(rand.NewSource(20261122))}
	kinds := map[string]int{}
	for i := range 6000 {
		m := []mode{guardMode, propMode}[i%2]
		src := g.next(m == propMode)
		x, err := ParseExpr(src)
		if err != nil {
			t.Fatalf("generated %q does not parse: %v", src, err)
		}
		got, want, gotErrs, wantErrs := checkBoth(sys, x, m)
		if gotErrs.Error() != wantErrs.Error() {
			t.Fatalf("%q (mode %d): errors\n%v\nwant\n%v", src, m, gotErrs, wantErrs)
		}
		if len(gotErrs) > 0 {
			kinds["error"]++
			continue
		}
		kinds[got.kind.String()]++
		if !equalValues(got, want) {
			t.Fatalf("%q (mode %d): got %+v, want %+v", src, m, got, want)
		}
	}
	t.Logf("outcomes: %v", kinds)
	// The generator must reach every outcome, or the comparison above
	// proves little.
	for _, k := range []string{"error", kindInt.String(), kindBool.String(), kindCTL.String()} {
		if kinds[k] < 100 {
			t.Errorf("only %d random cases gave %s (%v)", kinds[k], k, kinds)
		}
	}
}

// TestLongChains checks chains of thousands of operands, which the
// node-at-a-time evaluation handles in quadratic time, against it, with
// an error or a temporal operand at the start, middle or end.
func TestLongChains(t *testing.T) {
	sys := exprSystem(t)
	const k = 2000
	chainOf := func(op string, atom func(i int) string) string {
		parts := make([]string, k)
		for i := range parts {
			parts[i] = atom(i)
		}
		return strings.Join(parts, op)
	}
	counters := []string{"#N", "#T", "#C", "#N[r]", "#N[w]", "#T[r]", "#T[w]", "#C[r]", "#C[w]"}
	cases := []struct {
		name, src string
		kind      kind // of a correct result; errors are compared only
	}{
		{"and", chainOf(" & ", func(i int) string { return fmt.Sprintf("%s != %d", counters[i%9], i) }), kindBool},
		{"and-true-false", chainOf(" & ", func(i int) string { return []string{"true", "#C = 0", "#T[w] >= 1"}[i%3] }), kindBool},
		{"and-false", chainOf(" & ", func(i int) string {
			if i == k/2 {
				return "false"
			}
			return "#C = 0"
		}), kindBool},
		{"or", chainOf(" | ", func(i int) string { return fmt.Sprintf("%s = %d", counters[i%9], i) }), kindBool},
		{"or-temporal-middle", chainOf(" | ", func(i int) string {
			if i == k/2 {
				return "AG #C = 0"
			}
			return "#C < 1"
		}), kindCTL},
		{"and-int-end", chainOf(" & ", func(i int) string {
			if i == k-1 {
				return "#C"
			}
			return "#C = 1"
		}), kindBool},
		{"sum", chainOf(" + ", func(i int) string { return counters[i%9] }) + " = n", kindBool},
		{"sum-minus", chainOf(" - ", func(i int) string { return fmt.Sprintf("%d*%s", i%5+1, counters[i%9]) }) + " < 0", kindBool},
		{"sum-overflow", chainOf(" + ", func(i int) string { return "999999*#C + 1000000" }) + " < 0", kindBool},
		{"product", chainOf(" * ", func(i int) string {
			if i == k/3 {
				return "(#C + 2*#T[w])"
			}
			return "1"
		}) + " = 0", kindBool},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x, err := ParseExpr(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			m := guardMode
			if tc.kind == kindCTL {
				m = propMode
			}
			got, want, gotErrs, wantErrs := checkBoth(sys, x, m)
			if gotErrs.Error() != wantErrs.Error() {
				t.Fatalf("errors\n%v\nwant\n%v", gotErrs, wantErrs)
			}
			if len(gotErrs) == 0 && (got.kind != tc.kind || !equalValues(got, want)) {
				t.Fatalf("got %v %+v, want %v %+v", got.kind, got, tc.kind, want)
			}
		})
	}
}

// TestHugeChain checks a guard of 100000 conjuncts, too long for the
// node-at-a-time evaluation (it would copy about 5·10⁹ conjuncts): the
// result is one flat And holding every atom in order.
func TestHugeChain(t *testing.T) {
	const k = 100000
	var b strings.Builder
	b.WriteString("states: [N, T, C]\ngroups: {r: 1, w: 2}\ninit: N\ntransitions:\n  - from: N\n    to: T\n    guard: \"")
	for i := range k {
		if i > 0 {
			b.WriteString(" & ")
		}
		fmt.Fprintf(&b, "#C != %d", i)
	}
	b.WriteString("\"\n")
	sys, err := Parse("huge.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	and, ok := sys.Transitions[0].Blocks[0].Guard.(presburger.And)
	if !ok || len(and) != k {
		t.Fatalf("guard is %T with %d conjuncts, want an And of %d", sys.Transitions[0].Blocks[0].Guard, len(and), k)
	}
	for i, f := range and {
		want := presburger.Compare(presburger.VarTerm(sys.TotalVar(2)), presburger.Ne, presburger.ConstTerm(int64(i)))
		if !reflect.DeepEqual(f, want) {
			t.Fatalf("conjunct %d is %v, want %v", i, f, want)
		}
	}
}
