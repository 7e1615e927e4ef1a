package bymc_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
)

// random19 is what vsym makes of each automaton of ByMC's benchmarks of
// randomized consensus (testdata/random19, kept with their licence):
// the error or the constructs it needs ("" for none), and the
// specifications that check-all.sh has ByMC check, which the CONCUR'19
// paper reports verified (the script leaves rabc-s, rabc and rs-bosco
// out: the last needs a cluster, its comment says).
var random19 = []struct {
	file, outcome string
	checked       []string
	// slow marks the automata whose least instances are too large to
	// cross-check in a test: the Byzantine ones' (more than 5,000
	// configurations) and rabc-s's (20 s).
	slow bool
}{
	{"ben-or.ta", "", nil, false},
	{"n-ben-or-byz.ta", "", []string{"agreement0", "validity0", "completeness0", "round_term"}, true},
	// Rule 2 is written twice; the second gives fR1' == fR1 + 1 and
	// lists fR1 in unchanged(...): no step meets both, and vsym refuses
	// the contradiction rather than guess which was meant.
	{"n-ben-or-nonclean.ta", "error: rule 2 gives fR1' twice, differently (first at testdata/random19/n-ben-or-nonclean.ta:94:12)", []string{"agreement0", "validity0", "completeness0", "round_term"}, false},
	{"n-ben-or.ta", "", []string{"agreement0", "validity0", "completeness0", "round_term"}, false},
	{"n-kset.ta", "", []string{"agreement2", "validity01", "completeness0", "round_term"}, false},
	{"n-rabc-cr.ta", "", []string{"agreement0", "validity0", "completeness0", "round_term"}, false},
	{"n-rabc-s.ta", "", nil, true},
	// The F faulty processes start in locFP1 and move: a second group
	// of processes, which may be empty.
	{"n-rabc.ta", "SplitInit", nil, false},
	{"n-rs-bosco.ta", "", nil, false},
	{"p-ben-or-byz.ta", "", []string{"decide_or_flip"}, true},
	{"p-ben-or-nonclean.ta", "error: rule 2 gives fR1' twice, differently (first at testdata/random19/p-ben-or-nonclean.ta:94:12)", []string{"decide_or_flip"}, false},
	{"p-ben-or.ta", "", []string{"decide_or_flip"}, false},
	{"p-kset.ta", "", []string{"decide_or_flip"}, false},
	{"p-rabc-cr.ta", "", []string{"decide_or_flip"}, false},
	{"p-rabc-s.ta", "", nil, true},
	{"p-rabc.ta", "SplitInit", nil, false},
	{"p-rs-bosco.ta", "", nil, false},
}

// TestRandom19 checks the table above, and, as TestISoLA18 does, that
// the specifications check-all.sh checks hold on each automaton that
// translates at the least values of its parameters, and cross-checks
// its translation: configurations and every property's verdict at the
// two least instances (in -short, the first automaton's only).
func TestRandom19(t *testing.T) {
	var listed []string
	for _, c := range random19 {
		listed = append(listed, c.file)
	}
	checked := scheduledBy(suiteScript(t, "testdata/random19", listed))
	crossed := 0
	for _, c := range random19 {
		t.Run(c.file, func(t *testing.T) {
			file := filepath.Join("testdata/random19", c.file)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			imp := bymc.Translate(file, src)
			if got := formatstest.Outcome(imp); got != c.outcome {
				t.Errorf("vsym makes %q of it, the table says %q", got, c.outcome)
			}
			name := strings.TrimSuffix(c.file, ".ta")
			if !slices.Equal(checked[name], c.checked) {
				t.Errorf("check-all.sh checks %v, the table says %v", checked[name], c.checked)
			}
			if c.outcome != "" || c.slow || testing.Short() && crossed > 0 {
				return
			}
			// The published verdicts, on the automaton's own semantics.
			checkPublished(t, file, src, c.checked)
			if n := crossCheckUpTo(t, file, src, 4, 5000, 2); n == 0 {
				t.Errorf("no instance cross-checked")
			}
			crossed++
		})
	}
}

// scheduledBy reads, from random19's check-all.sh, which specifications
// it has ByMC check on each automaton: "for s in a b; do sched \"name
// $s ..." and "sched \"name spec ...".
func scheduledBy(script string) map[string][]string {
	out := map[string][]string{}
	loop := regexp.MustCompile(`(?m)^for s in ([^;]*); do\s*\n\s*sched "([\w-]+) \$s`)
	for _, m := range loop.FindAllStringSubmatch(script, -1) {
		out[m[2]] = append(out[m[2]], strings.Fields(m[1])...)
	}
	one := regexp.MustCompile(`(?m)^sched "([\w-]+) (\w+) `)
	for _, m := range one.FindAllStringSubmatch(script, -1) {
		out[m[1]] = append(out[m[1]], m[2])
	}
	return out
}
