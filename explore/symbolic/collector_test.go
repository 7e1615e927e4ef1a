package symbolic

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/presburger"
)

// TestWorkSameWhateverGoCollector runs the same explorations with Go's
// collector off, collecting at every 5% of heap growth, and forced all
// the time from another goroutine, in node tables small enough to
// collect garbage many times, also inside operations: the nodes
// produced (explore.MaxWork's count), the peak nodes, the table's size
// and the whole report, times aside, must be the same. Upstream rudd
// freed the nodes whose Node finalizers Go's collector had happened to
// run (see third_party/rudd/README.vsym.md).
func TestWorkSameWhateverGoCollector(t *testing.T) {
	broken := func() *counterabs.Model { // a counterexample to lift
		m := grw(5, 4)
		m.Transitions[3].Guard = presburger.Compare(v(3), presburger.Ge, k(1))
		return m
	}
	cases := []struct {
		name string
		mod  func() *counterabs.Model
		opts []Option
	}{
		{"grw-bfs-backward", func() *counterabs.Model { return grw(5, 10) }, []Option{WithStrategy(BFS), WithReachable(false), WithNodeTable(1 << 10)}},
		{"grw-saturate-reach", func() *counterabs.Model { return grw(8, 12) }, []Option{WithNodeTable(1 << 10)}},
		{"grw-broken-trace", broken, []Option{WithStrategy(Chain), WithNodeTable(1 << 9)}},
	}
	type outcome struct {
		produced, peak, table, collections int
		report                             string
	}
	run := func(t *testing.T, mod *counterabs.Model, opts []Option) outcome {
		e, err := New(mod, explore.NewConfig(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		props, err := explore.NewConfig().SelectProperties(mod)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.checkProperties(context.Background(), props)
		if err != nil {
			t.Fatal(err)
		}
		rep.Stats.Seconds, rep.Stats.BuildSeconds, rep.Stats.ReachSeconds, rep.Stats.PeakBytes = 0, 0, 0, 0
		js, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		st := e.Stats()
		o := outcome{produced: st.Produced, peak: st.PeakNodes, table: st.TableSize, report: string(js)}
		for _, line := range strings.Split(e.b.Stats(), "\n") {
			if f := strings.Fields(line); len(f) == 4 && f[0] == "#" && f[2] == "GC:" {
				o.collections, _ = strconv.Atoi(f[3])
			}
		}
		return o
	}
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			debug.SetGCPercent(-1)
			off := run(t, c.mod(), c.opts)
			if off.collections < 3 {
				t.Fatalf("the node table collected %d times, so the test shows little", off.collections)
			}
			debug.SetGCPercent(5)
			often := run(t, c.mod(), c.opts)
			debug.SetGCPercent(100)
			stop, done := make(chan struct{}), make(chan struct{})
			go func() {
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
			forced := run(t, c.mod(), c.opts)
			close(stop)
			<-done
			t.Logf("%d collections, %d nodes produced, peak %d, table %d", off.collections, off.produced, off.peak, off.table)
			for _, o := range []struct {
				name string
				got  outcome
			}{{"GOGC=5", often}, {"runtime.GC all the time", forced}} {
				if o.got != off {
					t.Errorf("with %s: %+v\nwith Go's collector off: %+v", o.name, o.got, off)
				}
			}
		})
	}
}
