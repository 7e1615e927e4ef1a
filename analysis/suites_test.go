package analysis_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// suiteCase is one row of testdata/suites/cases.tsv: a file of a public
// suite (or of the hand-written set in mist's format), the verdicts
// published for its properties, the fastest published time, and what
// vsym makes of it today. testdata/suites/README.md describes the
// columns and where each figure comes from.
type suiteCase struct {
	line             int
	suite, file      string
	published        map[string]formats.Verdict // property -> holds/fails
	source           string
	fastest, tool    string
	vsym             string // proved, refuted, unknown, "explored ...: ...", "refused: ...", "error: ..."
	full             bool   // the proof is skipped under -short
	bench            bool   // the proof is left to scripts/suites-bench.sh
	publishedColumns string
}

// readCases reads testdata/suites/cases.tsv.
func readCases(t testing.TB) []suiteCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "suites", "cases.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []suiteCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 8 {
			t.Fatalf("cases.tsv:%d: %d columns, want 8", n, len(cols))
		}
		c := suiteCase{line: n, suite: cols[0], file: cols[1], source: cols[3], fastest: cols[4], tool: cols[5], vsym: cols[6], publishedColumns: cols[2]}
		switch cols[7] {
		case "short":
		case "full":
			c.full = true
		case "bench":
			c.bench = true
		default:
			t.Fatalf("cases.tsv:%d: cost %q, want short, full or bench", n, cols[7])
		}
		c.published = map[string]formats.Verdict{}
		if cols[2] != "-" {
			for _, pv := range strings.Fields(cols[2]) {
				name, v, ok := strings.Cut(pv, ":")
				switch {
				case ok && v == "holds":
					c.published[name] = formats.Yes
				case ok && v == "fails":
					c.published[name] = formats.No
				default:
					t.Fatalf("cases.tsv:%d: published %q, want property:holds or property:fails", n, pv)
				}
			}
		}
		switch {
		case c.vsym == "proved", c.vsym == "refuted", c.vsym == "unknown":
		case strings.HasPrefix(c.vsym, "refused: "), strings.HasPrefix(c.vsym, "error: "):
		case explored.MatchString(c.vsym):
		default:
			t.Fatalf("cases.tsv:%d: vsym %q, want proved, refuted, unknown, explored P=v,...: holds|fails, refused: ... or error: ...", n, c.vsym)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// unknownWork is the work budget of each property of a row that
// cases.tsv says vsym leaves unknown (the default is
// analysis.PropertyWork).
const unknownWork = 1_000_000

// suiteRoots are the folders the suites' files are read from: the files
// kept in the repository always, mist's benchmarks (GPL, not kept) when
// VSYM_SUITES names the folder scripts/suites.sh fills.
func suiteRoots() map[string]string {
	roots := map[string]string{
		"hand":     filepath.Join("..", "formats", "mist", "testdata"),
		"isola18":  filepath.Join("..", "formats", "bymc", "testdata", "isola18"),
		"random19": filepath.Join("..", "formats", "bymc", "testdata", "random19"),
		"yaml":     filepath.Join("..", "testdata"),
	}
	if dir := os.Getenv("VSYM_SUITES"); dir != "" {
		roots["mist"] = filepath.Join(dir, "mist", "benchmarks")
		roots["mist-m4"] = filepath.Join(dir, "mist-m4")
	}
	return roots
}

// suitePatterns are the files of each suite's folder the table must
// list, every one.
var suitePatterns = map[string][]string{
	"hand":     {"*.spec"},
	"isola18":  {"*.ta"},
	"random19": {"*.ta"},
	"yaml":     {"mist/*.yaml", "bymc/*.yaml", "cubicle/*.yaml", "styles/*.yaml"},
	"mist":     {"*/*.spec", "*/*/*.spec"},
	"mist-m4":  {"*.spec"},
}

// TestPublicSuites runs vsym as `vsym prove` does (the format's reader,
// then analysis.Prove with the default work budget) on every file of the
// public suites that testdata/suites/cases.tsv lists, and checks:
//
//   - the table lists every file of each suite's folder;
//   - a file the table says vsym refuses is refused for the constructs
//     the table names (a file that is now read fails the test: give its
//     row the verdict vsym now gives);
//   - the verdicts a file announces (mist's "#expected result:") are the
//     table's;
//   - no property is proved that is published as failing, or refuted that
//     is published as holding (a soundness bug);
//   - vsym's outcome on the file (proved, refuted or unknown) is the
//     table's, so that a change of the prover that decides more, or less,
//     shows here.
//
// mist's files are read only when VSYM_SUITES names the folder that
// scripts/suites.sh fills. Under -short the proofs of the rows marked
// "full" are skipped, and those marked "bench" always are (their reading
// is still checked); scripts/suites-bench.sh runs every proof.
func TestPublicSuites(t *testing.T) {
	cases := readCases(t)
	roots := suiteRoots()
	for suite, pats := range suitePatterns {
		root, ok := roots[suite]
		if !ok {
			continue
		}
		var found, listed []string
		for _, pat := range pats {
			files, _ := filepath.Glob(filepath.Join(root, pat))
			for _, f := range files {
				rel, _ := filepath.Rel(root, f)
				found = append(found, filepath.ToSlash(rel))
			}
		}
		for _, c := range cases {
			if c.suite == suite {
				listed = append(listed, c.file)
			}
		}
		slices.Sort(found)
		slices.Sort(listed)
		if !slices.Equal(found, listed) {
			t.Errorf("suite %s: the folder %s holds\n%v\ncases.tsv lists\n%v", suite, root, found, listed)
		}
	}
	decided := 0
	for _, c := range cases {
		root, ok := roots[c.suite]
		if !ok {
			if _, known := suitePatterns[c.suite]; !known {
				t.Errorf("cases.tsv:%d: unknown suite %q", c.line, c.suite)
			}
			continue
		}
		t.Run(c.suite+"/"+c.file, func(t *testing.T) {
			if runCase(t, c, filepath.Join(root, filepath.FromSlash(c.file))) {
				decided++
			}
		})
	}
	if os.Getenv("VSYM_SUITES") == "" {
		t.Logf("mist's benchmarks not read: VSYM_SUITES is not set (scripts/suites.sh fetches them)")
	}
	if decided == 0 {
		t.Errorf("no case decided")
	}
}

// BenchmarkPublicSuites measures analysis.Prove, with vsym prove's
// defaults, on every row of cases.tsv that vsym reads (mist's files when
// VSYM_SUITES names them), reporting the CPU time of each proof; a
// verdict against the published one fails it. scripts/suites-bench.sh
// times the whole command instead, beside the published times.
//
//	VSYM_SUITES=DIR go test -run '^$' -bench PublicSuites -benchtime 3x ./analysis/
func BenchmarkPublicSuites(b *testing.B) {
	roots := suiteRoots()
	for _, c := range readCases(b) {
		root, ok := roots[c.suite]
		if !ok || c.vsym == "unknown" || strings.HasPrefix(c.vsym, "refused: ") || strings.HasPrefix(c.vsym, "error: ") || explored.MatchString(c.vsym) {
			continue
		}
		b.Run(c.suite+"/"+c.file, func(b *testing.B) {
			path := filepath.Join(root, filepath.FromSlash(c.file))
			imp, err := formats.Load(path, translator(path))
			if err != nil {
				b.Fatal(err)
			}
			sys, err := imp.System()
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			for range b.N {
				proof, err := analysis.Prove(context.Background(), sys, analysis.ProveRequest{File: path})
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range proof.Results {
					want, published := c.published[r.Property.Name]
					if published && (r.Verdict == prove.Proved) != (want == formats.Yes) && r.Verdict != prove.Unknown && r.Verdict != prove.Skipped {
						b.Fatalf("SOUNDNESS: %s: property %s %v, published %v", c.file, r.Property.Name, r.Verdict, want)
					}
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// translator returns the reader of the file at path, by its extension:
// a YAML file (the hand translations of suite yaml) is vsym's own
// language, read as vsym prove reads it.
func translator(path string) func(string, []byte) *formats.Import {
	switch filepath.Ext(path) {
	case ".ta":
		return bymc.Translate
	case ".yaml":
		return readYAML
	}
	return mist.Translate
}

// readYAML reads a GSST file as an Import of format "yaml", which
// announces no verdict.
func readYAML(path string, src []byte) *formats.Import {
	imp := &formats.Import{Format: "yaml", Source: path}
	sys, err := gsst.Parse(path, src)
	if err != nil {
		imp.Errors = gsst.ErrorList{{Msg: err.Error()}}
		return imp
	}
	imp.Spec = sys.Spec()
	return imp
}

// cpuTime returns the CPU time (user + system) of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runCase checks one row; it reports whether vsym decided a property.
func runCase(t *testing.T, c suiteCase, path string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	imp := translator(path)(path, src)
	checkAnnounced(t, c, imp)
	got := formatstest.Outcome(imp)
	refused, isRefused := strings.CutPrefix(c.vsym, "refused: ")
	switch {
	case isRefused && got == "":
		t.Fatalf("cases.tsv:%d: vsym now reads %s, which the table says needs %s: give the row the verdict vsym prove gives (proved, refuted or unknown)", c.line, c.file, refused)
	case isRefused && got != refused:
		t.Fatalf("cases.tsv:%d: vsym makes %q of %s, the table says it needs %q", c.line, got, c.file, refused)
	case isRefused:
		t.Logf("refused: needs %s", got)
		return false
	case strings.HasPrefix(c.vsym, "error: "):
		if !strings.HasPrefix(got, c.vsym) {
			t.Fatalf("cases.tsv:%d: vsym makes %q of %s, the table says %q", c.line, got, c.file, c.vsym)
		}
		return false
	case got != "":
		t.Fatalf("cases.tsv:%d: vsym makes %q of %s, the table says it reads it (%s)", c.line, got, c.file, c.vsym)
	}
	if m := explored.FindStringSubmatch(c.vsym); m != nil {
		exploreCase(t, c, imp, m[1], m[2])
		return true
	}
	if c.full && testing.Short() {
		t.Skipf("the proof of %s is skipped under -short (cost full in cases.tsv)", c.file)
	}
	if c.bench {
		t.Skipf("the proof of %s takes minutes; scripts/suites-bench.sh runs it (cost bench in cases.tsv)", c.file)
	}
	sys, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	// A row vsym leaves unknown is run with a small work budget: with
	// the default one (`vsym prove`'s, which the benchmark uses) such a
	// file takes minutes to end unknown.
	var work int64
	if c.vsym == "unknown" {
		work = unknownWork
	}
	proof, err := analysis.Prove(context.Background(), sys, analysis.ProveRequest{File: path, Work: work})
	if err != nil {
		t.Fatal(err)
	}
	q := proof.Queries
	t.Logf("queries: %d answered by Quick, %d asked of Z3; %d calls of Spacer", q.Quick, q.Z3, q.Spacer)
	if fast(c) && strings.HasPrefix(c.suite, "mist") && q.Z3+q.Spacer > 0 || c.suite == "hand" && q.Z3 > 0 {
		t.Errorf("%s: %d queries asked of Z3 (%d answered by Quick), %d calls of Spacer: presburger.Quick should answer every query of a case this easy, and one published at 0.01 s or less needs no Spacer", c.file, q.Z3, q.Quick, q.Spacer)
	}
	proved, refuted, unknown := 0, 0, 0
	for _, r := range proof.Results {
		if r.Verdict == prove.Skipped {
			continue
		}
		name := r.Property.Name
		want, published := c.published[name]
		switch r.Verdict {
		case prove.Proved:
			proved++
			checkLemmas(t, c.file, r)
			if published && want == formats.No {
				t.Errorf("SOUNDNESS: %s: property %s proved for every size (by %s), published as failing (%s)", c.file, name, r.Method, c.source)
			}
		case prove.Refuted:
			refuted++
			if published && want == formats.Yes {
				t.Errorf("SOUNDNESS: %s: property %s refuted at %v (by %s), published as holding (%s)", c.file, name, r.Sizes, r.Method, c.source)
			}
		default:
			unknown++
		}
		t.Logf("%s: %v (%s) in %v", name, r.Verdict, r.Method, r.Duration)
	}
	var outcome string
	switch {
	case refuted > 0:
		outcome = "refuted"
	case unknown > 0:
		outcome = "unknown"
	case proved > 0:
		outcome = "proved"
	default:
		t.Fatalf("%s: no property proved, refuted or unknown", c.file)
	}
	if outcome != c.vsym {
		t.Errorf("cases.tsv:%d: vsym's outcome on %s is %s, the table says %s: update the row (and BENCHMARKS.md)", c.line, c.file, outcome, c.vsym)
	}
	return proved+refuted > 0
}

// checkLemmas checks that each lemma r lists is a consequence of its
// invariant: both are formulas over the variables of one model, and a
// lemma carried from a derived system's model must be rewritten over
// the model the invariant is re-checked on.
func checkLemmas(t *testing.T, file string, r prove.Result) {
	t.Helper()
	solver := z3.New(z3.Work(10_000_000))
	for _, l := range r.Lemmas {
		f := presburger.Conj(r.Invariant, presburger.Negation(l.Formula))
		var bounds []presburger.Bound
		for _, v := range presburger.FreeVars(f) {
			bounds = append(bounds, presburger.AnyInt(v))
		}
		a, err := solver.Solve(context.Background(), presburger.Problem{Bounds: bounds, F: f})
		switch {
		case err != nil:
			t.Errorf("%s: property %s: lemma %s: %v", file, r.Property.Name, l.Text, err)
		case a.Result != presburger.Unsat:
			t.Errorf("%s: property %s: the lemma %s (%s) does not follow from the invariant %s: %v", file, r.Property.Name, l.Text, l.Kind, r.InvariantText, a.Result)
		}
	}
}

// fast reports whether c is published at 0.01 s or less: the proof of
// mist's file (suites mist and mist-m4) should ask Z3 nothing (issue
// 29), neither a query (presburger.Quick answers them) nor Spacer. (The
// translations by hand of suite yaml may ask more: mesh2x2.yaml's state
// equation, over 151 variables where mist's file has 73, runs past
// Quick's budget, and peterson.yaml's exploration invariant as
// boundedPN/peterson's.)
func fast(c suiteCase) bool {
	fastest, err := strconv.ParseFloat(c.fastest, 64)
	return err == nil && fastest <= 0.01
}

// explored matches the outcome of a file that vsym prove cannot take
// yet and vsym explore decides at the parameter values it names:
// "explored N=4,T=1,F=1: holds" (every property holds there) or ":
// fails" (some property fails there).
var explored = regexp.MustCompile(`^explored ([A-Za-z_][A-Za-z0-9_]*=[0-9]+(?:,[A-Za-z_][A-Za-z0-9_]*=[0-9]+)*): (holds|fails)$`)

// exploreCase explores the file read as imp at the parameter values
// params ("N=4,T=1"), and checks each verdict against the published one
// and the outcome (holds: every property holds) against the table's.
func exploreCase(t *testing.T, c suiteCase, imp *formats.Import, params, outcome string) {
	sys, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	values := make([]int, len(sys.Params))
	for _, pv := range strings.Split(params, ",") {
		name, v, _ := strings.Cut(pv, "=")
		k := slices.IndexFunc(sys.Params, func(p gsst.Param) bool { return p.Name == name })
		if k < 0 {
			t.Fatalf("cases.tsv:%d: %s has no parameter %s", c.line, c.file, name)
		}
		values[k], _ = strconv.Atoi(v)
	}
	inst, err := sys.InstantiateParams(values, nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := analysis.Explore(context.Background(), inst, analysis.ExploreRequest{Engine: "auto", NoTraces: true})
	if err != nil {
		t.Fatal(err)
	}
	if !x.Report.Exact {
		t.Fatalf("%s at %s: the model is not exact", c.file, params)
	}
	all := true
	for _, p := range x.Report.Properties {
		all = all && p.Holds
		if want, published := c.published[p.Name]; published && p.Holds != (want == formats.Yes) {
			t.Errorf("SOUNDNESS: %s at %s: property %s holds: %v, published as %v (%s)", c.file, params, p.Name, p.Holds, want, c.source)
		}
		t.Logf("%s at %s: holds %v", p.Name, params, p.Holds)
	}
	if got := map[bool]string{true: "holds", false: "fails"}[all]; got != outcome {
		t.Errorf("cases.tsv:%d: vsym explore at %s says %s, the table says %s: update the row", c.line, params, got, outcome)
	}
}

// checkAnnounced compares the verdicts the file announces with the
// table's published ones: each announcement is in the table, and a row
// whose source names the file has at least one.
func checkAnnounced(t *testing.T, c suiteCase, imp *formats.Import) {
	t.Helper()
	for _, e := range imp.Expected {
		if want, ok := c.published[e.Property]; !ok || want != e.Holds {
			t.Errorf("cases.tsv:%d: %s announces %q for %s (%v), the table's published verdicts are %q", c.line, c.file, e.Text, e.Property, e.Holds, c.publishedColumns)
		}
	}
	if slices.Contains(strings.Split(c.source, ","), "file") && len(imp.Expected) == 0 {
		t.Errorf("cases.tsv:%d: the source is the file, which announces no verdict", c.line)
	}
}
