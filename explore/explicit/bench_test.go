package explicit

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/internal/testsupport"
)

// Benchmarks report the search throughput (stored states per second of
// the whole run, model checking included when properties are checked)
// and the state store's bytes per stored state.
//
//	go test ./explore -run '^$' -bench Explicit -benchtime 3x

// cpuTime returns the CPU time (user + system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchReport runs the benchmark and reports, besides ns/op, the states,
// states per wall-clock second, states per CPU second (the machine is
// shared, so wall-clock rates vary with its load; CPU time includes the
// garbage collector's) and bytes of state store per stored state.
func benchReport(b *testing.B, run func() (*explore.Report, error)) {
	b.Helper()
	var rep *explore.Report
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		var err error
		if rep, err = run(); err != nil {
			b.Fatal(err)
		}
	}
	states := float64(rep.ReachableStates.Int64())
	b.ReportMetric(states, "states")
	b.ReportMetric(states*float64(b.N)/b.Elapsed().Seconds(), "states/s")
	if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(states*float64(b.N)/cpu, "states/cpu-s")
	}
	b.ReportMetric(float64(rep.Stats.StoredBytes)/states, "bytes/state")
}

// Readers-writers, 200 readers and 200 writers, unreduced (group-sorted):
// 120,801 states. Search only.
func BenchmarkExplicitRWConcrete200(b *testing.B) {
	sys := rwSystem(200, 200)
	benchReport(b, func() (*explore.Report, error) {
		return checkConcrete(context.Background(), sys, explore.Properties(), explore.CountConcrete(false))
	})
}

// The same with its seven CTL properties (AG, EF, AG EX, AG AF, AF) and
// the count of concrete configurations.
func BenchmarkExplicitRWConcrete200CTL(b *testing.B) {
	sys := rwSystem(200, 200)
	benchReport(b, func() (*explore.Report, error) {
		return checkConcrete(context.Background(), sys)
	})
}

// GR&W counter abstraction, 8 local states and 30 processes: the
// reachable vectors are those with #L8 <= 1, C(36,6) + C(35,6) =
// 3,570,952 of them.
func BenchmarkExplicitGRWAbstract(b *testing.B) {
	am := grwModel(testsupport.GRW(3, 10, 8))
	benchReport(b, func() (*explore.Report, error) {
		return checkAbstract(context.Background(), am, explore.Properties())
	})
}

// The same with AG #L8 <= 1.
func BenchmarkExplicitGRWAbstractAG(b *testing.B) {
	am := grwModel(testsupport.GRW(3, 10, 8))
	benchReport(b, func() (*explore.Report, error) {
		return checkAbstract(context.Background(), am)
	})
}

// GR&W unreduced with small parameters: 3 groups of 3, 5 local states.
func BenchmarkExplicitGRWConcrete(b *testing.B) {
	sys := testsupport.GRW(3, 3, 5)
	benchReport(b, func() (*explore.Report, error) {
		return checkConcrete(context.Background(), sys)
	})
}

// lockYAML is gsst/testdata/constructs/lock.yaml with 8 readers, 7 writers and
// k in 0..5: shared variables (a lock bit, a turn, a counter), per-group
// updates and a broadcast restricted to a group, so every move is a
// general one (counterabs.StepInto).
const lockYAML = `name: lock
shared:
  lock: {type: bool, init: false}
  turn: {type: [reader, writer], init: writer}
  k: {type: 0..5, init: 0}
states: [I, T, C, W]
groups: {reader: 8, writer: 7}
init: I
transitions:
  - {from: I, to: T}
  - from: T
    to: C
    guard: {reader: "!lock & turn = reader", writer: "lock = false"}
    update: {reader: "lock := true; turn := writer", writer: "lock := true; turn := reader; k := k + 1"}
  - from: C
    to: I
    update: "lock := false"
  - from: I
    to: W
    guard: "k = 5"
    broadcast: [T -> I, "C -> I [writer]"]
    update: "k := 0; lock := false"
properties:
  mutex: "AG #C <= 1"
  lockHeld: "AG (#C >= 1 -> lock)"
`

// The lock system's group-counter model, its two properties checked.
func BenchmarkExplicitLockShared(b *testing.B) {
	sys := testsupport.Parse("lock.yaml", lockYAML)
	benchReport(b, func() (*explore.Report, error) {
		return checkConcrete(context.Background(), sys)
	})
}
