package mist_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/formats/mist"
	"github.com/vsym/vsym/gsst"
)

// randomNet writes a random mist net over places p0..p(k-1): rules that
// take and put tokens, transfer the tokens of a place into another,
// count up and down, test places for zero or intervals; an init that
// starts p0 with any number of tokens from 1 and the others with 0 or 1,
// or any number (p >= 0);
// and a target of one or two conjunctions.
func randomNet(r *rand.Rand) string {
	k := 3 + r.Intn(3)
	place := func() int { return r.Intn(k) }
	var b strings.Builder
	b.WriteString("vars\n ")
	for p := range k {
		fmt.Fprintf(&b, " p%d", p)
	}
	b.WriteString("\nrules\n")
	for range 2 + r.Intn(4) {
		add := make([]int64, k)
		into := make([][]int, k) // into[p]: places whose tokens p receives
		source := make([]bool, k)
		var guard []string
		guarded := map[int]bool{}
		for range 1 + r.Intn(2) { // movers: take a token from a, put one in b
			a, c := place(), place()
			if a == c {
				continue
			}
			add[a]--
			add[c]++
		}
		if r.Intn(3) == 0 { // a transfer
			s, d := place(), place()
			if s != d && !source[d] && len(into[s]) == 0 {
				into[d] = append(into[d], s)
				source[s] = true
			}
		}
		if r.Intn(4) == 0 { // the last place counts up or down
			add[k-1] += int64(1 - 2*r.Intn(2))
		}
		for p := range k {
			if add[p] < 0 && !guarded[p] && r.Intn(4) != 0 {
				guard = append(guard, fmt.Sprintf("p%d >= %d", p, -add[p]))
				guarded[p] = true
			}
		}
		for range r.Intn(2) {
			p := place()
			if guarded[p] {
				continue
			}
			guarded[p] = true
			switch r.Intn(3) {
			case 0:
				guard = append(guard, fmt.Sprintf("p%d = 0", p))
			case 1:
				guard = append(guard, fmt.Sprintf("p%d in [0, 1]", p))
			default:
				guard = append(guard, fmt.Sprintf("p%d >= 1", p))
			}
		}
		if len(guard) == 0 {
			guard = []string{"true"}
		}
		var eqs []string
		for p := range k {
			if add[p] == 0 && len(into[p]) == 0 && !source[p] {
				continue
			}
			var terms []string
			if !source[p] {
				terms = append(terms, fmt.Sprintf("p%d", p))
			}
			for _, q := range into[p] {
				terms = append(terms, fmt.Sprintf("p%d", q))
			}
			rhs := strings.Join(terms, " + ")
			switch {
			case rhs == "":
				rhs = fmt.Sprint(max(add[p], 0))
			case add[p] > 0:
				rhs += fmt.Sprintf(" + %d", add[p])
			case add[p] < 0:
				rhs += fmt.Sprintf(" - %d", -add[p])
			}
			eqs = append(eqs, fmt.Sprintf("p%d' = %s", p, rhs))
		}
		if len(eqs) == 0 {
			eqs = []string{"p0' = p0"}
		}
		fmt.Fprintf(&b, "  %s -> %s;\n", strings.Join(guard, ", "), strings.Join(eqs, ", "))
	}
	b.WriteString("init\n  p0 >= 1")
	for p := 1; p < k; p++ {
		if v := r.Intn(5); v < 4 {
			fmt.Fprintf(&b, ", p%d = %d", p, v%2)
		} else {
			fmt.Fprintf(&b, ", p%d >= 0", p) // any number, none included
		}
	}
	fmt.Fprintf(&b, "\ntarget\n  p%d >= 2\n", place())
	if a, c := place(), place(); a != c && r.Intn(2) == 0 {
		fmt.Fprintf(&b, "  p%d >= 1, p%d = 0\n", a, c)
	}
	return b.String()
}

// TestCrossCheckRandom cross-checks random nets that translate.
func TestCrossCheckRandom(t *testing.T) {
	r := rand.New(rand.NewSource(30))
	runs := 600
	if testing.Short() {
		runs = 150
	}
	translated, complete, observers, checkedObservers, spread := 0, 0, 0, 0, 0
	const shortObservers = 12
	needs := map[string]int{}
	for i := range runs {
		src := randomNet(r)
		name := fmt.Sprintf("random%d.spec", i)
		imp := mist.Translate(name, []byte(src))
		if len(imp.Errors) > 0 {
			needs["error"]++
			if needs["error"] <= 3 {
				t.Logf("refused: %v\n%s", imp.Errors, src)
			}
			continue
		}
		if len(imp.Missing) > 0 {
			needs[imp.Missing[0].Construct.String()]++
			continue
		}
		// Two in five random nets conserve no tokens and are read with
		// an observer (outside.go); their counters mostly grow without
		// end, so each is explored to its budget: under -short only the
		// first few are cross-checked.
		if slices.ContainsFunc(imp.Spec.Groups, func(g gsst.Group) bool { return g.Name == "outside" }) {
			observers++
			if testing.Short() && observers > shortObservers {
				continue
			}
			checkedObservers++
		}
		translated++
		if imp.Spec.InitOver != nil {
			spread++
		}
		var yaml bytes.Buffer
		if err := formats.Write(&yaml, imp); err != nil {
			t.Fatal(err)
		}
		formatstest.ReadsBack(t, imp, yaml.Bytes())
		_, safe := crossCheck(t, name, []byte(src), 4)
		complete += len(safe)
		if t.Failed() {
			t.Fatalf("net:\n%s", src)
		}
	}
	t.Logf("%d of %d random nets translate, %d of them with an observer; %d cross-checked (%d with an observer, %d with a place that may start empty; %d initial markings compared in full); the others: %v",
		translated+observers-checkedObservers, runs, observers, translated, checkedObservers, spread, complete, needs)
	if translated < runs/4 || complete < translated || checkedObservers == 0 || spread == 0 {
		t.Errorf("only %d of %d random nets translate, %d compared in full", translated, runs, complete)
	}
}
