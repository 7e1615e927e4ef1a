package bymc_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/formats"
	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
	"github.com/vsym/vsym/gsst"
)

// randomTA writes a random threshold automaton: locations L0..Lk, every
// process starting in L0, rules from a location to a later one with
// guards over two shared variables and the parameter N and actions that
// count up (and, at times, a rule back that changes nothing, so that
// runs need not settle), and specifications of the shapes vsym
// translates, each with no premise, the premise most share, its own
// fairness premise, or a path premise [] c besides. A fairness premise
// may ask what no rule ensures (a location empty that rules fill), so
// that the runs it admits are not every run.
func randomTA(r *rand.Rand) string {
	k := 3 + r.Intn(3)
	// Perhaps a location LZ where one more process starts ("LZ == 1", as
	// random19's "locCR == Fi"), which the other processes may enter:
	// inert unless a rule leaves it or a specification reads it (then
	// the inits split the processes in a way GSST cannot state).
	extra := r.Intn(4) == 0
	leaves, read := extra && r.Intn(6) == 0, extra && r.Intn(6) == 0
	var b strings.Builder
	b.WriteString("skel Proc {\n  local pc;\n  shared x, y;\n  parameters N;\n  assumptions (0) { N >= 1; }\n  locations (0) {")
	for i := range k {
		fmt.Fprintf(&b, " L%d: [%d];", i, i)
	}
	if extra {
		b.WriteString(" LZ: [9];")
	}
	b.WriteString(" }\n  inits (0) { L0 == N;")
	for i := 1; i < k; i++ {
		fmt.Fprintf(&b, " L%d == 0;", i)
	}
	if extra {
		b.WriteString(" LZ == 1;")
	}
	b.WriteString(" x == 0; y == 0; }\n  rules (0) {\n")
	if extra {
		fmt.Fprintf(&b, "  90: L%d -> LZ when (x < 1) do { unchanged(x, y); };\n", r.Intn(k))
		if leaves {
			b.WriteString("  91: LZ -> L0 when (true) do { unchanged(x, y); };\n")
		}
	}
	guards := []string{"true", "x >= 1", "x < N", "y >= 1 && x < N", "!(y >= 2)", "x >= N - 1", "x + y >= 2 || y == 0", "1"}
	actions := []string{"x' == x + 1;", "y' == y + 1;", "unchanged(x, y);", "x' == x + 1; y' == y + 1;", "x' == x;"}
	used := map[[2]int]bool{}
	var clauses []string
	for i := range 2 + r.Intn(5) {
		from := r.Intn(k - 1)
		to := from + 1 + r.Intn(k-1-from)
		if used[[2]int{from, to}] && r.Intn(2) == 0 {
			continue // else a second rule between these locations, with its own guard and actions
		}
		used[[2]int{from, to}] = true
		g := guards[r.Intn(len(guards))]
		fmt.Fprintf(&b, "  %d: L%d -> L%d when (%s) do { %s };\n", i, from, to, g, actions[r.Intn(len(actions))])
		if g == "1" {
			g = "true"
		}
		clauses = append(clauses, fmt.Sprintf("(!(%s) || L%d == 0)", g, from))
	}
	if idle := r.Intn(k); r.Intn(3) == 0 { // an idle self-loop
		fmt.Fprintf(&b, "  99: L%d -> L%d when (true) do { unchanged(x); };\n", idle, idle)
	}
	if loop := r.Intn(k); r.Intn(3) == 0 { // a self-loop that counts, a bounded number of times
		fmt.Fprintf(&b, "  98: L%d -> L%d when (y < 2) do { y' == y + 1; };\n", loop, loop)
	}
	if r.Intn(6) == 0 { // a rule back: the rules form a cycle
		fmt.Fprintf(&b, "  97: L%d -> L0 when (x + y < 1) do { unchanged(x, y); };\n", 1+r.Intn(k-1))
	}
	b.WriteString("  }\n  specifications (0) {\n")
	loc := func() string { return fmt.Sprintf("L%d", r.Intn(k)) }
	fairness := func() string {
		r.Shuffle(len(clauses), func(i, j int) { clauses[i], clauses[j] = clauses[j], clauses[i] })
		cs := slices.Clone(clauses[:r.Intn(len(clauses)+1)])
		if r.Intn(4) == 0 || len(cs) == 0 {
			cs = append(cs, loc()+" == 0") // perhaps no rule ensures it
		}
		return "<>[](" + strings.Join(cs, " && ") + ")"
	}
	shared := fairness()
	conds := []func() string{
		func() string { return loc() + " == 0" },
		func() string { return "x <= " + fmt.Sprint(r.Intn(3)) },
		func() string { return loc() + " + " + loc() + " >= 1" },
		func() string { return "y < x || " + loc() + " != 0" },
	}
	cond := func() string { return conds[r.Intn(len(conds))]() }
	for i := range 3 {
		premise := ""
		switch r.Intn(5) {
		case 1, 2:
			premise = shared + " -> "
		case 3:
			premise = fairness() + " -> "
		case 4:
			premise = shared + " && [](" + cond() + ") -> "
		}
		var concl string
		switch r.Intn(5) {
		case 0:
			concl = "[](" + cond() + ")"
		case 1:
			concl = "<>(" + cond() + ")"
		case 2:
			concl = "[](" + cond() + " -> <>(" + cond() + "))"
		case 3:
			concl = "(" + cond() + ") -> [](" + cond() + ")"
		default:
			concl = cond() + " || <>(" + cond() + ")"
		}
		if premise != "" {
			concl = "(" + concl + ")" // ByMC groups a -> b -> c to the left
		}
		fmt.Fprintf(&b, "    s%d: %s%s;\n", i, premise, concl)
	}
	if read {
		b.WriteString("    s3: [](LZ <= 1);\n")
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// TestCrossCheckRandom cross-checks random automata.
func TestCrossCheckRandom(t *testing.T) {
	r := rand.New(rand.NewSource(30))
	runs := 300
	if testing.Short() {
		runs = 80
	}
	translated, instances, underJustice, inFormula, leftOut := 0, 0, 0, 0, 0
	refused := map[string]int{}
	for i := range runs {
		src := randomTA(r)
		name := fmt.Sprintf("random%d.ta", i)
		imp := bymc.Translate(name, []byte(src))
		if err := imp.Err(); err != nil {
			if len(imp.Errors) > 0 {
				t.Fatalf("%s: %v\n%s", name, err, src)
			}
			refused[imp.Missing[0].Construct.String()]++
			continue
		}
		translated++
		if strings.Contains(strings.Join(imp.Notes.Groups, " "), "left out") {
			leftOut++
		}
		// Which readings the automaton exercises (spec.go): the file's
		// justice with a safety property read under it, and premises in
		// the formula.
		if len(imp.Spec.Fairness.Justice) > 0 && slices.ContainsFunc(imp.Spec.Properties, func(p gsst.Property) bool {
			return !strings.Contains(p.Text, "AF") && !strings.Contains(p.Text, "E")
		}) {
			underJustice++
		}
		if slices.ContainsFunc(imp.Spec.Properties, func(p gsst.Property) bool { return strings.Contains(p.Text, "EG") }) {
			inFormula++
		}
		var yaml bytes.Buffer
		if err := formats.Write(&yaml, imp); err != nil {
			t.Fatal(err)
		}
		formatstest.ReadsBack(t, imp, yaml.Bytes())
		instances += crossCheck(t, name, []byte(src), 3)
		if t.Failed() {
			t.Fatalf("automaton:\n%s", src)
		}
	}
	t.Logf("%d of %d random automata translate (%d instances checked); the others need %v", translated, runs, instances, refused)
	t.Logf("%d read a safety property under the file's justice, %d have premises in a formula", underJustice, inFormula)
	if underJustice < runs/20 || inFormula < runs/4 {
		t.Errorf("too few automata exercise each reading: %d under the file's justice, %d with premises in a formula", underJustice, inFormula)
	}
	// The processes that start in LZ and stay there are left out.
	t.Logf("%d leave out the processes that start in a location they never leave", leftOut)
	if leftOut < runs/10 {
		t.Errorf("only %d automata leave processes out", leftOut)
	}
	if translated < runs/2 {
		t.Errorf("only %d of %d random automata translate", translated, runs)
	}
}
