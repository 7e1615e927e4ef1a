package symbolic

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/internal/testsupport"
)

// poolModel is the group-counter model of testsupport.PoolYAML(n): with
// n = 1000, EF deadlock backwards runs for over a minute in a handful of
// BDD operations (issue 18).
func poolModel(t *testing.T, n int) *counterabs.Model {
	t.Helper()
	return parseGroup(t, "pool.yaml", []byte(testsupport.PoolYAML(n)))
}

// The context is read inside BDD operations: EF deadlock on the pool,
// which runs for over a minute in a handful of operations, stops with the
// context's error (before the hook, the check between operations came
// tens of seconds late; how late it comes now is a duration, which no
// test asserts).
func TestContextInsideOperation(t *testing.T) {
	e, err := New(poolModel(t, 1000), explore.Config{}, WithReachable(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = e.eu(ctx, e.space, e.dead)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's", err)
	}
}

// The memory bound is read inside BDD operations too: EF deadlock on the
// pool, one long operation, stops once the heap's objects exceed a bound
// 64 MiB above what they are now.
func TestMaxMemoryInsideOperation(t *testing.T) {
	var lim *explore.LimitError
	runtime.GC()
	bound := int64(heapObjects()) + 64<<20
	e, err := New(poolModel(t, 1000), explore.NewConfig(explore.MaxMemory(bound)), WithReachable(false))
	if err != nil {
		t.Fatal(err)
	}
	// No deadline: on a loaded machine one would end the run before
	// the heap grows; a bound that does not hold lets the operation run
	// to its end (over a minute), and the error below is then missing.
	_, err = e.eu(context.Background(), e.space, e.dead)
	if !errors.As(err, &lim) || lim.Kind != "memory" || lim.Limit != bound || lim.Bytes <= bound {
		t.Errorf("EF deadlock under %d bytes: %v, want a memory *explore.LimitError", bound, err)
	}
}

// A context that has already ended stops New inside its first long
// operation, with the context's error.
func TestContextStopsNew(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(poolModel(t, 1000), explore.Config{}, WithContext(ctx)); !errors.Is(err, context.Canceled) {
		t.Errorf("New under a cancelled context: %v, want context.Canceled", err)
	}
}

// A Checker no one holds is collected: rudd keeps the interrupt hook and
// every node it hands out keeps rudd alive through its finalizer, so a
// hook that reached the Checker kept every Checker of a process, and its
// whole BDD, for ever (the conformance suite ran out of 24 GiB).
func TestCheckerCollected(t *testing.T) {
	m := poolModel(t, 10)
	var collected atomic.Int32
	for range 5 {
		e, err := New(m, explore.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Reachable(context.Background()); err != nil {
			t.Fatal(err)
		}
		runtime.SetFinalizer(e, func(*Checker) { collected.Add(1) })
	}
	for i := 0; i < 50 && collected.Load() == 0; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if collected.Load() == 0 {
		t.Error("no Checker was collected after 50 garbage collections")
	}
}
