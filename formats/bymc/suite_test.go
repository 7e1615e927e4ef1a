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

// isola18 is what vsym makes of each automaton of ByMC's ISoLA'18
// benchmarks (testdata/isola18, kept with their licence): the
// constructs it needs, and the specifications that check-all.sh has
// ByMC check, which the paper reports verified (they hold).
var isola18 = []struct {
	file, needs string
	checked     []string
}{
	{"aba.ta", "", []string{"unforg", "corr", "agreement"}},
	{"bcrb.ta", "", nil},
	{"bosco.ta", "", []string{"lemma3_0", "lemma4_0", "one_step0", "fast0"}},
	{"c1cs.ta", "", []string{"one_step0", "fast0"}},
	{"cc.ta", "", []string{"validity0", "agreement", "termination"}},
	{"cf1s.ta", "", []string{"one_step0", "fast0"}},
	{"frb.ta", "", []string{"unforg", "corr", "relay"}},
	{"nbacg.ta", "", []string{"agreement", "abort_validity", "commit_validity", "termination"}},
	{"nbacr.ta", "", []string{"termination1", "termination2", "validity", "nontriv"}},
	{"strb.ta", "", []string{"unforg", "corr", "relay"}},
}

// TestISoLA18 checks the table above: what vsym makes of each file, the
// specifications check-all.sh checks, and, on the automaton's own
// semantics at the least values of the parameters, that each of those
// specifications holds there, as ByMC reports.
func TestISoLA18(t *testing.T) {
	var listed []string
	for _, c := range isola18 {
		listed = append(listed, c.file)
	}
	checked := checkedByScript(suiteScript(t, "testdata/isola18", listed))
	evaluated := 0
	for _, c := range isola18 {
		t.Run(c.file, func(t *testing.T) {
			file := filepath.Join("testdata/isola18", c.file)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			imp := bymc.Translate(file, src)
			if got := formatstest.Outcome(imp); got != c.needs {
				t.Errorf("vsym makes %q of it, the table says %q", got, c.needs)
			}
			name := strings.TrimSuffix(c.file, ".ta")
			if !slices.Equal(checked[name], c.checked) {
				t.Errorf("check-all.sh checks %v, the table says %v", checked[name], c.checked)
			}
			evaluated += checkPublished(t, file, src, c.checked)
			if c.needs == "" {
				if len(imp.Refused) > 0 {
					t.Errorf("refused: %v", imp.Refused)
				}
				// The import, its configurations and every property's
				// verdict, at the two least instances with parameters in
				// 0..5 and at most 5000 configurations.
				if n := crossCheckUpTo(t, file, src, 5, 5000, 2); n == 0 {
					t.Errorf("no instance cross-checked")
				}
			}
		})
	}
	if evaluated < 10 {
		t.Errorf("only %d published verdicts evaluated", evaluated)
	}
}

// suiteScript checks that the automata of the suite in dir are the
// files a table lists, in order, and returns the suite's check-all.sh.
func suiteScript(t *testing.T, dir string, listed []string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.ta"))
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	if !slices.Equal(files, listed) {
		t.Fatalf("the folder holds %v, the table lists %v", files, listed)
	}
	script, err := os.ReadFile(filepath.Join(dir, "check-all.sh"))
	if err != nil {
		t.Fatal(err)
	}
	return string(script)
}

// checkedByScript reads, from check-all.sh, which specifications it has
// ByMC check on each automaton: "for s in a b c; do sched \"name $s ...".
func checkedByScript(script string) map[string][]string {
	out := map[string][]string{}
	re := regexp.MustCompile(`(?m)^for s in ([^;]*); do\s*\n\s*sched "(\w+) \$s`)
	for _, m := range re.FindAllStringSubmatch(script, -1) {
		out[m[2]] = append(out[m[2]], strings.Fields(m[1])...)
	}
	return out
}

// checkPublished evaluates each specification of names by ByMC's meaning
// on the automaton's configuration graph, from every initial
// configuration (a shared variable the inits leave free from 0 to 2),
// at the three least assignments of values in 0..4 to the parameters
// that meet the assumptions, and requires that it holds; it returns the
// number of verdicts evaluated.
func checkPublished(t *testing.T, file string, src []byte, names []string) int {
	f, err := bymc.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	var params []string
	for _, d := range f.Decls {
		if d.Kind == bymc.PARAMETERS {
			for _, id := range d.Names {
				params = append(params, id.Name)
			}
		}
	}
	values := map[string]int64{}
	var found []map[string]int64
	var rec func(k int)
	rec = func(k int) {
		if len(found) == 3 {
			return
		}
		if k == len(params) {
			sim := newTASim(f, values)
			for _, a := range f.Assumptions {
				if !sim.holds(a, nil) {
					return
				}
			}
			vs := map[string]int64{}
			for n, v := range values {
				vs[n] = v
			}
			found = append(found, vs)
			return
		}
		for v := int64(0); v <= 4; v++ {
			values[params[k]] = v
			rec(k + 1)
		}
	}
	rec(0)
	if len(found) == 0 {
		t.Fatalf("%s: no values of the parameters in 0..4 meet the assumptions", file)
	}
	n := 0
	for _, vs := range found {
		sim := newTASim(f, vs)
		inits := sim.initials(2)
		if len(inits) == 0 {
			t.Fatalf("%s with %v: no initial configuration", file, vs)
		}
		g, done := sim.explore(inits, 200000)
		if !done {
			t.Fatalf("%s with %v: more than 200000 configurations", file, vs)
		}
		for _, sp := range f.Specs {
			if !slices.Contains(names, sp.Name.Name) {
				continue
			}
			for i := range inits {
				if !sim.specHolds(g, i, sp.X) {
					t.Errorf("%s with %v: %s fails from %v; ByMC reports it verified", file, vs, sp.Name.Name, g.states[i])
				}
			}
			n++
		}
		t.Logf("%s with %v: %d configurations from %d initial ones", file, vs, len(g.states), len(inits))
	}
	return n
}
