package analysis_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/prove"
)

// TestPublicSuitesAsCounterSystems proves each mist net of cases.tsv
// (VSYM_SUITES) written as the other hand translation a user may write
// (counterSystem: every place a shared integer, one process firing
// rule i by S -> ri -> S) and checks vsym's verdict against the one it
// gives the net itself (cases.tsv's vsym column, itself checked against
// the published verdict by TestPublicSuites). The translation reads
// differently: shared variables that start in ranges ("1.."), guards
// and updates over them, a hub whose rule states the coverability
// search fuses.
func TestPublicSuitesAsCounterSystems(t *testing.T) {
	roots := suiteRoots()
	ran := 0
	for _, c := range readCases(t) {
		root, ok := roots[c.suite]
		if !ok || !strings.HasPrefix(c.suite, "mist") || c.vsym != "proved" && c.vsym != "refuted" {
			continue
		}
		t.Run(c.suite+"/"+c.file, func(t *testing.T) {
			path := filepath.Join(root, filepath.FromSlash(c.file))
			if c.full && testing.Short() {
				t.Skipf("the proof of %s is skipped under -short (cost full in cases.tsv)", c.file)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			yaml, err := counterSystem(path, src)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := gsst.Parse(c.file+".yaml", []byte(yaml))
			if err != nil {
				t.Fatalf("the translation does not read: %v\n%s", err, yaml)
			}
			proof, err := analysis.Prove(context.Background(), sys, analysis.ProveRequest{File: path})
			if err != nil {
				t.Fatal(err)
			}
			ran++
			r := proof.Results[0]
			want := map[string]prove.Verdict{"proved": prove.Proved, "refuted": prove.Refuted}[c.vsym]
			if r.Verdict != want {
				t.Errorf("%s: %v as a counter system (by %s: %s), %s as the net", c.file, r.Verdict, r.Method, r.Reason, c.vsym)
			}
			t.Logf("%v by %s in %v", r.Verdict, r.Method, r.Duration)
		})
	}
	if ran == 0 {
		t.Skip("mist's benchmarks not read: VSYM_SUITES is not set (scripts/suites.sh fetches them)")
	}
}

// counterSystem writes the mist net of src as a GSST whose places are
// shared integers ("0..", starting at the net's initial interval) and
// whose one process, from its hub state S, fires rule i as the
// transition S -> ri with the rule's guard and update, and returns by
// ri -> S: the translation of mesh2x2.yaml and pncsacover.yaml in
// testdata/mist, written mechanically. The property says that no
// target marking is covered (or, for a bound of both sides, reached).
func counterSystem(path string, src []byte) (string, error) {
	f, err := mist.ParseFile(path, src)
	if err != nil {
		return "", err
	}
	n, errs := mist.Resolve(f)
	if len(errs) > 0 {
		return "", errs
	}
	place := func(i int) string { return "p_" + n.Places[i] }
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	states := []string{"S"}
	for i := range n.Rules {
		states = append(states, fmt.Sprintf("r%d", i+1))
	}
	p("name: net\nstates: [%s]\ngroups: {net: 1}\ninit: {net: S}\nshared:\n", strings.Join(states, ", "))
	for i := range n.Places {
		iv := n.Init[i]
		init := fmt.Sprint(iv.Lo)
		switch {
		case n.InitAt[i] == nil:
			init = `"0.."`
		case iv.NoHi:
			init = fmt.Sprintf(`"%d.."`, iv.Lo)
		case iv.Hi != iv.Lo:
			init = fmt.Sprintf("%d..%d", iv.Lo, iv.Hi)
		}
		p("  %s: {type: \"0..\", init: %s}\n", place(i), init)
	}
	p("transitions:\n")
	for i, r := range n.Rules {
		var guard, update []string
		for _, bd := range r.Guard {
			guard = append(guard, bound(place(bd.Place), bd.Interval)...)
		}
		keys := make([]int, 0, len(r.Eqs))
		for q := range r.Eqs {
			keys = append(keys, q)
		}
		slices.Sort(keys)
		for _, q := range keys {
			e := r.Eqs[q]
			var sum []string
			for _, x := range e.Places {
				sum = append(sum, place(x))
			}
			if e.Add != 0 || len(sum) == 0 {
				sum = append(sum, fmt.Sprint(e.Add))
			}
			update = append(update, place(q)+" := "+strings.ReplaceAll(strings.Join(sum, " + "), "+ -", "- "))
		}
		p("  - {from: S, to: r%d", i+1)
		if len(guard) > 0 {
			p(", guard: %q", strings.Join(guard, " & "))
		}
		if len(update) > 0 {
			p(", update: %q", strings.Join(update, "; "))
		}
		p("}\n  - {from: r%d, to: S}\n", i+1)
	}
	var targets []string
	for _, conj := range n.Target {
		var atoms []string
		for _, bd := range conj {
			atoms = append(atoms, bound(place(bd.Place), bd.Interval)...)
		}
		targets = append(targets, "("+strings.Join(atoms, " & ")+")")
	}
	p("properties:\n  target: %q\n", "AG !("+strings.Join(targets, " | ")+")")
	return b.String(), nil
}

// bound writes "x in iv" as atoms.
func bound(x string, iv mist.Interval) []string {
	if !iv.NoHi && iv.Lo == iv.Hi {
		return []string{fmt.Sprintf("%s = %d", x, iv.Lo)}
	}
	var atoms []string
	if iv.Lo > 0 {
		atoms = append(atoms, fmt.Sprintf("%s >= %d", x, iv.Lo))
	}
	if !iv.NoHi {
		atoms = append(atoms, fmt.Sprintf("%s <= %d", x, iv.Hi))
	}
	if len(atoms) == 0 {
		atoms = append(atoms, "true")
	}
	return atoms
}
