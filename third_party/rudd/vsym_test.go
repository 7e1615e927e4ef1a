// Added by vsym (not in upstream rudd): see README.vsym.md.

package rudd

import (
	"errors"
	"strings"
	"testing"
)

// equalities returns the conjunction of x_i <-> y_i for i < n, with every
// x before every y in the order: a BDD of about 2^n nodes.
func equalities(b *BDD, n int) Node {
	f := b.True()
	for i := 0; i < n; i++ {
		f = b.And(f, b.Equiv(b.Ithvar(i), b.Ithvar(n+i)))
	}
	return f
}

func TestInterruptStopsOperation(t *testing.T) {
	const n = 18
	b, err := New(2*n, Nodesize(1<<10))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	stop := errors.New("stop now")
	b.SetInterrupt(func() error {
		calls++
		if calls >= 3 {
			return stop
		}
		return nil
	})
	if f := equalities(b, n); f != nil {
		t.Fatalf("the operation ran to the end (%d interrupt calls)", calls)
	}
	if calls != 3 {
		t.Errorf("interrupt called %d times, want 3 (it must stop at the first error)", calls)
	}
	if !b.Errored() || !strings.Contains(b.Error(), "interrupted: stop now") {
		t.Errorf("error status %q, want the interruption", b.Error())
	}
}

func TestInterruptSilentKeepsResults(t *testing.T) {
	const n = 12
	plain, _ := New(2*n, Nodesize(1<<10))
	hooked, _ := New(2*n, Nodesize(1<<10))
	calls := 0
	hooked.SetInterrupt(func() error { calls++; return nil })
	want := plain.Satcount(equalities(plain, n))
	got := hooked.Satcount(equalities(hooked, n))
	if calls == 0 {
		t.Fatal("the interrupt function was never called")
	}
	if want.Cmp(got) != 0 || hooked.Errored() {
		t.Errorf("with a silent interrupt: %v (error %q), without: %v", got, hooked.Error(), want)
	}
	if want.Int64() != 1<<n {
		t.Errorf("Satcount = %v, want 2^%d", want, n)
	}
}
