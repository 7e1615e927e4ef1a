package prove_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// BenchmarkProve measures Check, end to end (the models, the cheap steps,
// the prover, the re-checks and the replays), on the bundled specs, on
// the mist suite's cache-coherence protocols (testdata/coverability) and
// on the mist nets of issue 29 (testdata/mist), each with the prover as
// vsym prove sets it up. A case fails when a verdict is not the expected
// one: the bundled specs' broken variants and the nets the mist suite
// publishes as unsafe have a refuted property, every other property is
// proved; an unknown verdict (the bound of 60 s per property ran out) is
// reported as the metric "unknown" and fails nothing. BENCHMARKS.md
// records the figures, beside the published ones:
//
//	go test -run '^$' -bench Prove -benchtime 3x ./prove/
func BenchmarkProve(b *testing.B) {
	type bench struct {
		name   string
		sys    *gsst.System
		unsafe bool
	}
	var cases []bench
	for _, name := range []string{"readers-writers-param", "mesi", "mesi-broken", "lock-mutex", "lock-mutex-broken",
		"peterson", "peterson-broken", "producer-consumer", "producer-consumer-broken", "resource-pool", "resource-pool-broken",
		"threshold/strb", "threshold/cc", "threshold/nbac", "threshold/cc-mutated"} {
		var sys *gsst.System
		if t, ok := strings.CutPrefix(name, "threshold/"); ok {
			sys = thresholdSpec(b, t)
		} else {
			sys = bundled(b, name)
		}
		cases = append(cases, bench{name, sys, strings.Contains(name, "broken") || strings.Contains(name, "mutated")})
	}
	for _, dir := range []string{"coverability", "mist"} {
		files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			b.Fatalf("no files in testdata/%s: %v", dir, err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			unsafe := publishedUnsafe.Match(src)
			cases = append(cases, bench{dir + "/" + strings.TrimSuffix(filepath.Base(f), ".yaml"), load(b, f, src), unsafe})
		}
	}
	s := z3.New()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := cpuTime()
			unknown := 0
			for i := range b.N {
				rep, err := prove.Check(context.Background(), c.sys, s, s, prove.Timeout(60*time.Second), prove.RelaxedProver(z3.New(z3.NoHull())))
				if err != nil {
					b.Fatal(err)
				}
				refuted, undecided := false, false
				for _, r := range rep.Results {
					if i == 0 && r.Verdict != prove.Skipped {
						b.Logf("%s: %v by %s", r.Property.Name, r.Verdict, r.Method)
					}
					switch r.Verdict {
					case prove.Refuted:
						refuted = true
						if !c.unsafe {
							b.Fatalf("%s refuted, want proved", r.Property.Name)
						}
					case prove.Unknown:
						undecided = true
						b.Logf("%s: unknown (%s)", r.Property.Name, r.Reason)
					}
				}
				switch {
				case undecided:
					unknown++
				case refuted != c.unsafe:
					b.Fatalf("some property refuted: %v, want %v", refuted, c.unsafe)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(unknown)/float64(b.N), "unknown")
		})
	}
}

// publishedUnsafe matches the comment of a translated net whose target
// the mist suite publishes as coverable.
var publishedUnsafe = regexp.MustCompile(`(?m)^#.*published\s+#?\s*verdict: unsafe`)

// cpuTime returns the CPU time (user + system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
