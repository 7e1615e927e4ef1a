// Added by vsym (not in upstream rudd): see README.vsym.md.

package rudd

import (
	"errors"
	"runtime"
	"runtime/debug"
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

// TestCollectfromSameNodes checks Collectfrom's promise: a table that
// starts small and doubles up to the collection size builds the same
// nodes, at the same indices, as one made at that size, with the same
// counts of nodes produced and used; past it, both collect garbage and
// still compute the same sets.
func TestCollectfromSameNodes(t *testing.T) {
	stats := func(b *BDD) (produced, used string) {
		for _, line := range strings.Split(b.Stats(), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "Produced:" {
				produced = f[1]
			}
			if len(f) >= 2 && f[0] == "Used:" {
				used = f[1]
			}
		}
		return produced, used
	}
	const size = 1 << 16
	for _, n := range []int{4, 8, 16} {
		whole, rw := milner(t, true, n, Nodesize(size), Cachesize(size/4), Cacheratio(25))
		grown, rg := milner(t, true, n, Nodesize(64), Collectfrom(size), Cachesize(16), Cacheratio(25))
		pw, uw := stats(whole)
		pg, ug := stats(grown)
		if *rw != *rg || pw != pg || uw != ug {
			t.Errorf("milner(%d): node %d, %s produced, %s used from a table of %d; node %d, %s produced, %s used from 64 grown to it",
				n, *rw, pw, uw, size, *rg, pg, ug)
		}
		if whole.size() != size || grown.size() <= 64 {
			t.Errorf("milner(%d): tables of %d and %d nodes; want %d (no collection) and a grown one", n, whole.size(), grown.size(), size)
		}
		if whole.Satcount(rw).Cmp(grown.Satcount(rg)) != 0 {
			t.Errorf("milner(%d): %v states from a table of %d, %v from 64 grown to it", n, whole.Satcount(rw), size, grown.Satcount(rg))
		}
		t.Logf("milner(%d): %s nodes produced, table grown to %d", n, pg, grown.size())
	}
	// Past the collection size, both collect garbage and grow. A
	// collection keeps the nodes the operation caches name (cachemark),
	// and the grown table's caches were cleared at each growth, so the
	// two free different nodes: only the sets computed are compared
	// (TestCollectionReproducible checks that a collection does not
	// depend on Go's collector).
	const small = 1 << 8
	whole, rw := milner(t, true, 10, Nodesize(small), Cachesize(small/4), Cacheratio(25))
	grown, rg := milner(t, true, 10, Nodesize(16), Collectfrom(small), Cachesize(4), Cacheratio(25))
	if whole.Satcount(rw).Cmp(grown.Satcount(rg)) != 0 {
		t.Errorf("milner(10) past the collection size: %v states from a table of %d, %v from 16 grown to it", whole.Satcount(rw), small, grown.Satcount(rg))
	}
}

// TestKeptReferenceSurvives makes thousands of references to one node,
// drops all but the last and fills the table so that it collects
// garbage: the node must stay what the kept reference says. Upstream
// counted references up to 1023 and had each dropped one's finalizer
// decrement the count, down to 0 while the last still pointed to the
// node, and the collection freed a node in use.
func TestKeptReferenceSurvives(t *testing.T) {
	b, err := New(24, Nodesize(1<<10))
	if err != nil {
		t.Fatal(err)
	}
	x, y := b.Ithvar(0), b.Ithvar(1)
	refs := make([]Node, 2000)
	for i := range refs {
		refs[i] = b.And(x, y)
	}
	kept := refs[len(refs)-1]
	refs = nil
	before := len(b.gcstat.history)
	equalities(b, 11) // thousands of nodes: the table collects
	if len(b.gcstat.history) == before {
		t.Fatal("the table never collected garbage, so the test shows nothing")
	}
	if again := b.And(x, y); *again != *kept || b.nodes[*kept].low == -1 {
		t.Errorf("x0 & x1 is node %d now; the kept reference points to node %d (low %d)", *again, *kept, b.nodes[*kept].low)
	}
}

// TestCollectionReproducible checks that what a garbage collection of
// the node table frees does not depend on when Go's collector runs: the
// same work with Go's collector off (it runs only when the table
// collects) and with it running all the time, from another goroutine,
// produces the same nodes at the same indices in a table of the same
// size.
func TestCollectionReproducible(t *testing.T) {
	type outcome struct {
		node  int
		stats string
		size  int
	}
	run := func() outcome {
		b, r := milner(t, true, 12, Nodesize(1<<8), Cachesize(1<<6), Cacheratio(25))
		return outcome{*r, b.Stats(), b.size()}
	}
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	quiet := run()
	debug.SetGCPercent(1)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the Go collector at any moment
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	busy := run()
	close(stop)
	<-done
	if strings.Contains(quiet.stats, "# of GC:    0") {
		t.Fatalf("the table never collected garbage, so the test shows nothing:\n%s", quiet.stats)
	}
	if quiet != busy {
		t.Errorf("with Go's collector off: node %d in a table of %d\n%s\nwith it running: node %d in a table of %d\n%s",
			quiet.node, quiet.size, quiet.stats, busy.node, busy.size, busy.stats)
	}
}
