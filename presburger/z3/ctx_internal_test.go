package z3

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/vsym/vsym/presburger"
)

// BenchmarkContext measures the fixed cost of one Z3 context (creation,
// error handler, deletion), paid by every Solve and Project call.
func BenchmarkContext(b *testing.B) {
	for i := 0; i < b.N; i++ {
		z, err := newZctx()
		if err != nil {
			b.Fatal(err)
		}
		z.close()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "contexts/s")
}

// TestErrorHandler checks that a Z3 error is returned as a Go error (Z3's
// default handler would exit the process) and that the next call in a
// new context starts clean.
func TestErrorHandler(t *testing.T) {
	for i := 0; i < 2; i++ {
		err := provokeError()
		if err == nil {
			t.Fatal("no error recorded")
		}
		t.Log(err)
	}
	z, err := newZctx()
	if err != nil {
		t.Fatal(err)
	}
	defer z.close()
	z.num(3)
	if err := z.fail(); err != nil {
		t.Errorf("fresh context has error %v", err)
	}
}

// TestBackTranslation feeds the back translation SMT-LIB text directly:
// ordinary atoms come back as the same comparison, and values whose
// arithmetic would leave int64 are errors, never a wrapped formula.
func TestBackTranslation(t *testing.T) {
	name := func(v presburger.Var) string { return fmt.Sprintf("x%d", v) }
	for _, tc := range []struct {
		name, smt string
		want      string // "" for an error
	}{
		{"linear", "(assert (<= (+ x0 (* 3 x1)) 7))", "x0 + 3*x1 <= 7"},
		{"sub", "(assert (> (- x0 x1 2) (- 5)))", "x0 - x1 > -3"},
		{"chain", "(assert (< 0 x0 x1))", "-x0 < 0 & x0 - x1 < 0"},
		{"distinct", "(assert (distinct x0 x1 1))", "x0 - x1 != 0 & x0 != 1 & x1 != 1"},
		{"bool ite", "(assert (ite (= x0 0) (>= x1 1) (<= x1 0)))", "x0 = 0 & x1 >= 1 | x0 != 0 & x1 <= 0"},
		// 2^62 + 2^62 is 2^63: the difference of the two sides wraps.
		{"difference overflows", "(assert (>= (+ x0 4611686018427387904) (- 4611686018427387904)))", ""},
		{"numeral above the limit", "(assert (<= x0 4611686018427387905))", ""},
		{"numeral beyond int64", "(assert (<= x0 9223372036854775808))", ""},
		{"product overflows", "(assert (<= (* 4611686018427387904 2 x0) 1))", ""},
		{"nonlinear", "(assert (<= (* x0 x1) 1))", ""},
		{"mod", "(assert (= (mod x0 2) 0))", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := readBack(tc.smt, 2)
			switch {
			case tc.want == "" && err == nil:
				t.Fatalf("got %s, want an error", presburger.Format(f, name))
			case tc.want != "" && err != nil:
				t.Fatalf("error %v, want %s", err, tc.want)
			case tc.want != "":
				if got := presburger.Format(f, name); got != tc.want {
					t.Errorf("got %s, want %s", got, tc.want)
				}
			}
		})
	}
}

// TestDropIdleContexts: a call's context waits in the pool for the next
// call, DropIdleContexts deletes it, and the next call makes a new one.
func TestDropIdleContexts(t *testing.T) {
	x, y := presburger.Var(0), presburger.Var(1)
	p := presburger.Problem{
		Bounds: []presburger.Bound{{Var: x, Lo: 0, Hi: 10}, {Var: y, Lo: 0, Hi: 10}},
		F:      presburger.Compare(presburger.VarTerm(x), presburger.Eq, presburger.VarTerm(y).Scale(2)),
	}
	solve := func() {
		t.Helper()
		if a, err := New().Solve(context.Background(), p); err != nil || a.Result != presburger.Sat {
			t.Fatalf("%v, %v: want sat", a, err)
		}
	}
	idle := func() []*zctx {
		solvePool.Lock()
		defer solvePool.Unlock()
		return slices.Clone(solvePool.idle)
	}
	solve()
	before := idle()
	if len(before) == 0 {
		t.Fatal("no idle context after a call")
	}
	DropIdleContexts()
	if n := len(idle()); n != 0 {
		t.Fatalf("%d idle contexts after DropIdleContexts", n)
	}
	for _, z := range before {
		if !z.closed {
			t.Error("a dropped context was not deleted")
		}
	}
	solve()
	if after := idle(); len(after) != 1 || slices.Contains(before, after[0]) {
		t.Errorf("idle after the next call: %v, want one new context (before: %v)", after, before)
	}
}
