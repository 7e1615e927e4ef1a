package testsupport

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
)

// Case is one archive of the known-answer corpus, testdata/corpus/*.txtar
// at the module root. The archive's comment says how its expected values
// were obtained; its files are
//
//	spec.yaml      the GSST spec
//	sizes          for a spec with ranges of group sizes, the instance:
//	               "group=k, ..." (default: every group at its least size)
//	params         for a spec with parameters, their values at the
//	               instance: "t=1, ..." (required)
//	certification  one line "U -> V: verdict" per transition, then one
//	               line "rendezvous P -> Q, ...: verdict" per rendezvous,
//	               in order: symmetric, certified or violated
//	total          the total-counter model (built with counterabs.Force
//	               when the system is not certified: "exact: no")
//	group          the group-counter model
//
// A model's section has lines "exact: yes|no" (total only), "states: k"
// (reachable states), "deadlocks: k", for the group model "concrete: k"
// (process-indexed configurations the reachable states stand for) and
// "unreduced: k" (configurations reachable from the initial one: the
// states of the concrete NuSMV model), and "property NAME: holds|fails"
// for each property the model can check. Lines starting with # are
// comments.
type Case struct {
	Name    string // the archive's file name without .txtar
	Comment string
	Spec    []byte
	Sys     *gsst.System // Spec parsed, as file Name.yaml, at the instance
	// Certification holds the certification verdict of each transition,
	// then of each rendezvous.
	Certification []string
	Total, Group  *Level
}

// Level is what a case expects of one model.
type Level struct {
	Exact      bool
	States     int64
	Deadlocks  int64
	Concrete   int64 // -1 when not given
	Unreduced  int64 // -1 when not given
	Properties []PropertyVerdict
}

// PropertyVerdict is the expected verdict of one property.
type PropertyVerdict struct {
	Name  string
	Holds bool
}

// Holds returns the expected verdict of the named property and whether
// the level lists it.
func (l *Level) Holds(name string) (holds, ok bool) {
	for _, p := range l.Properties {
		if p.Name == name {
			return p.Holds, true
		}
	}
	return false, false
}

// ModuleRoot returns the directory of go.mod above the working directory
// (a test runs in its package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}

// corpusDir returns the directory of the corpus archives.
func corpusDir() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "testdata", "corpus"), nil
}

// LoadCorpus reads and parses every archive of the corpus, in file name
// order.
func LoadCorpus() ([]*Case, error) {
	dir, err := corpusDir()
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no archives in %s", dir)
	}
	sort.Strings(files)
	var out []*Case
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := parseCase(strings.TrimSuffix(filepath.Base(f), ".txtar"), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// parseCase reads one corpus archive.
func parseCase(name string, data []byte) (*Case, error) {
	a := ParseArchive(data)
	c := &Case{Name: name, Comment: string(a.Comment), Spec: a.Get("spec.yaml")}
	if c.Spec == nil {
		return nil, fmt.Errorf("no spec.yaml")
	}
	sys, err := gsst.Parse(name+".yaml", c.Spec)
	if err != nil {
		return nil, err
	}
	if sys, err = instance(sys, a.Get("sizes"), a.Get("params")); err != nil {
		return nil, err
	}
	c.Sys = sys
	items := ItemNames(sys)
	for _, line := range lines(a.Get("certification")) {
		i := strings.LastIndex(line, ": ")
		if i < 0 {
			return nil, fmt.Errorf("certification: bad line %q", line)
		}
		v := line[i+2:]
		if v != "symmetric" && v != "certified" && v != "violated" {
			return nil, fmt.Errorf("certification: unknown verdict %q", v)
		}
		if k := len(c.Certification); k >= len(items) || line[:i] != items[k] {
			return nil, fmt.Errorf("certification: line %q does not name item %d", line, k)
		}
		c.Certification = append(c.Certification, v)
	}
	if c.Certification != nil && len(c.Certification) != len(items) {
		return nil, fmt.Errorf("certification: %d verdicts for %d transitions and rendezvous", len(c.Certification), len(items))
	}
	if c.Total, err = parseLevel(a.Get("total")); err != nil {
		return nil, fmt.Errorf("total: %w", err)
	}
	if c.Group, err = parseLevel(a.Get("group")); err != nil {
		return nil, fmt.Errorf("group: %w", err)
	}
	return c, nil
}

// ItemNames names the transitions and then the rendezvous of sys, as
// the certification lines of an archive do.
func ItemNames(sys *gsst.System) []string {
	var out []string
	for i := range sys.Transitions {
		out = append(out, sys.TransitionName(&sys.Transitions[i]))
	}
	for i := range sys.Rendezvous {
		out = append(out, sys.RendezvousName(&sys.Rendezvous[i]))
	}
	return out
}

// instance returns the instance of a family that the sizes and params
// files name: every group of a range at the size named (by default its
// least), every parameter at its value (which a spec with parameters
// must give); a spec with fixed sizes and no parameter as it is.
func instance(sys *gsst.System, sizes, params []byte) (*gsst.System, error) {
	if !sys.Parametric() {
		if sizes != nil || params != nil {
			return nil, fmt.Errorf("sizes or params: the spec is not a family")
		}
		return sys, nil
	}
	var per []int
	if sizes != nil {
		named, err := namedValues(sizes)
		if err != nil {
			return nil, fmt.Errorf("sizes: %w", err)
		}
		if per, err = sys.SizesByName(named); err != nil {
			return nil, fmt.Errorf("sizes: %w", err)
		}
	}
	open := false
	for i := range sys.Params {
		open = open || !sys.Params[i].Fixed
	}
	switch {
	case open && params == nil:
		return nil, fmt.Errorf("params: a spec with parameters needs their values")
	case open:
		named, err := namedValues(params)
		if err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		values, err := sys.ParamsByName(named)
		if err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		return sys.InstantiateParams(values, per)
	case params != nil:
		return nil, fmt.Errorf("params: the spec has no parameters")
	case per == nil:
		return sys.Smallest()
	}
	return sys.Instantiate(per)
}

// namedValues reads "name=k, ...".
func namedValues(data []byte) (map[string]int, error) {
	named := map[string]int{}
	for _, part := range strings.Split(strings.TrimSpace(string(data)), ",") {
		name, k, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(k)
		if !ok || err != nil {
			return nil, fmt.Errorf("bad value %q (want name=k)", part)
		}
		named[name] = n
	}
	return named, nil
}

func lines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func parseLevel(data []byte) (*Level, error) {
	if data == nil {
		return nil, nil
	}
	l := &Level{Exact: true, States: -1, Deadlocks: -1, Concrete: -1, Unreduced: -1}
	for _, line := range lines(data) {
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("bad line %q", line)
		}
		if name, ok := strings.CutPrefix(key, "property "); ok {
			if val != "holds" && val != "fails" {
				return nil, fmt.Errorf("property %s: %q is neither holds nor fails", name, val)
			}
			l.Properties = append(l.Properties, PropertyVerdict{Name: name, Holds: val == "holds"})
			continue
		}
		if key == "exact" {
			if val != "yes" && val != "no" {
				return nil, fmt.Errorf("exact: %q is neither yes nor no", val)
			}
			l.Exact = val == "yes"
			continue
		}
		k, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		switch key {
		case "states":
			l.States = k
		case "deadlocks":
			l.Deadlocks = k
		case "concrete":
			l.Concrete = k
		case "unreduced":
			l.Unreduced = k
		default:
			return nil, fmt.Errorf("unknown key %q", key)
		}
	}
	if l.States < 0 || l.Deadlocks < 0 {
		return nil, fmt.Errorf("states and deadlocks are required")
	}
	return l, nil
}

// Format writes the level as its archive section.
func (l *Level) Format(total bool) []byte {
	var b strings.Builder
	if total {
		fmt.Fprintf(&b, "exact: %s\n", map[bool]string{true: "yes", false: "no"}[l.Exact])
	}
	fmt.Fprintf(&b, "states: %d\ndeadlocks: %d\n", l.States, l.Deadlocks)
	if l.Concrete >= 0 {
		fmt.Fprintf(&b, "concrete: %d\n", l.Concrete)
	}
	if l.Unreduced >= 0 {
		fmt.Fprintf(&b, "unreduced: %d\n", l.Unreduced)
	}
	for _, p := range l.Properties {
		fmt.Fprintf(&b, "property %s: %s\n", p.Name, map[bool]string{true: "holds", false: "fails"}[p.Holds])
	}
	return []byte(b.String())
}

// Symmetric reports whether detect may answer "symmetric" for t without a
// query, by the rule docs/certification.md states: one block of all the
// groups, guarded without group counters, and no transfer restricted to
// groups.
func Symmetric(sys *gsst.System, t *gsst.Transition) bool {
	for _, tr := range t.Broadcast {
		if tr.Groups != nil {
			return false
		}
	}
	return len(t.Blocks) == 1 && len(t.Blocks[0].Groups) == len(sys.Groups) && sys.IsTotal(t.Blocks[0].Guard)
}

// SymmetricRendezvous is Symmetric for a rendezvous: no part restricted
// to groups and a guard without group counters.
func SymmetricRendezvous(sys *gsst.System, rv *gsst.Rendezvous) bool {
	for _, p := range rv.Parts {
		if p.Groups != nil {
			return false
		}
	}
	return sys.IsTotal(rv.Guard)
}

// derivationWindow is how far above its least value FullSymmetry tries
// an unbounded shared variable for Derive: the archives compare such
// variables with constants below it and only add to them, so every value
// beyond behaves like one inside.
const derivationWindow = 8

// Derive computes what a case expects of sys with the oracles of this
// package on individual processes, for every construct of the
// language: certification by FullSymmetry, transition by transition
// and rendezvous by rendezvous (symmetric by the syntactic rule); the
// group-counter model as the quotient of Procs by group counters and
// shared values (its configurations counted from every arrangement of
// the initial one); the total-counter model as the quotient by orbits
// when the system is fully virtually symmetric and as the existential
// abstraction (Orbits) otherwise; every verdict by Sat on Procs (on the
// existential abstraction for an uncertified total model). Properties
// over group counters are left out of the total level. For a system of
// the paper, derivePaper computes the same from BruteForce and
// Unreduced, which TestCorpus checks.
func Derive(sys *gsst.System) (certification []string, total, group *Level) {
	sym := FullSymmetry(sys, derivationWindow)
	for k := range len(sys.Transitions) + len(sys.Rendezvous) {
		tr, rv := k, -1
		symmetric := false
		if k < len(sys.Transitions) {
			symmetric = Symmetric(sys, &sys.Transitions[k])
		} else {
			tr, rv = -1, k-len(sys.Transitions)
			symmetric = SymmetricRendezvous(sys, &sys.Rendezvous[rv])
		}
		switch {
		case sym.Violates(sys, tr, rv):
			certification = append(certification, "violated")
		case symmetric:
			certification = append(certification, "symmetric")
		default:
			certification = append(certification, "certified")
		}
	}
	sp := Procs(sys, 0)
	owner, init := Processes(sys)
	var arranged []ProcState
	for _, conf := range Arrangements(owner, init) {
		arranged = append(arranged, ProcState{Conf: conf, Shared: sys.InitShared()})
	}
	all := Procs(sys, 0, arranged...)
	gq := sp.Quotient(func(i int) string { return fmt.Sprint(counters(sys, owner, sp.States[i].Conf), sp.States[i].Shared) })
	group = &Level{Exact: true, States: int64(gq.Len()), Deadlocks: int64(gq.Deadlocks()),
		Concrete: int64(all.Len()), Unreduced: int64(sp.Len())}
	total = &Level{Exact: sym.Symmetric, Concrete: -1, Unreduced: -1}
	tg, truth := sp.Quotient(func(i int) string { return OrbitKey(sys, owner, sp.States[i]) }), sp.Graph
	if !sym.Symmetric {
		tg = Orbits(sys, 0)
		truth = tg
	}
	total.States, total.Deadlocks = int64(tg.Len()), int64(tg.Deadlocks())
	for _, p := range sys.Properties {
		group.Properties = append(group.Properties, PropertyVerdict{p.Name, Holds(sp.Graph, p.Formula)})
		if readsGroups(sys, &p) {
			continue
		}
		total.Properties = append(total.Properties, PropertyVerdict{p.Name, Holds(truth, p.Formula)})
	}
	return certification, total, group
}

// derivePaper is Derive for a system of the paper, from the oracles of
// the paper's definitions: certification by BruteForce (Theorem 6), the
// unreduced space and its quotients, the existential abstraction of
// Brute.Graph.
func derivePaper(sys *gsst.System) (certification []string, total, group *Level) {
	b := BruteForce(sys)
	for r := range sys.Transitions {
		switch {
		case !b.Closed(r):
			certification = append(certification, "violated")
		case Symmetric(sys, &sys.Transitions[r]):
			certification = append(certification, "symmetric")
		default:
			certification = append(certification, "certified")
		}
	}
	sp := Unreduced(sys)
	owner, init := Processes(sys)
	all := Unreduced(sys, Arrangements(owner, init)...)
	gq := sp.Groups()
	group = &Level{Exact: true, States: int64(gq.Len()), Deadlocks: int64(gq.Deadlocks()),
		Concrete: int64(all.Len()), Unreduced: int64(sp.Len())}
	tg := sp.Totals()
	total = &Level{Exact: b.Certified(), Concrete: -1, Unreduced: -1}
	truth := sp.Graph
	if !b.Certified() {
		tg = b.Graph()
		truth = tg
	}
	total.States, total.Deadlocks = int64(tg.Len()), int64(tg.Deadlocks())
	for _, p := range sys.Properties {
		group.Properties = append(group.Properties, PropertyVerdict{p.Name, Holds(sp.Graph, p.Formula)})
		if readsGroups(sys, &p) {
			continue
		}
		total.Properties = append(total.Properties, PropertyVerdict{p.Name, Holds(truth, p.Formula)})
	}
	return certification, total, group
}

// TotalProperties returns sys without the properties that read group
// counters, which the total-counter model cannot check (counterabs.Build
// refuses them); they are the properties of a case's total level.
func TotalProperties(sys *gsst.System) *gsst.System {
	var keep []int
	for i := range sys.Properties {
		if !readsGroups(sys, &sys.Properties[i]) {
			keep = append(keep, i)
		}
	}
	return sys.WithProperties(keep...)
}

// readsGroups reports whether property p reads a group counter.
func readsGroups(sys *gsst.System, p *gsst.Property) bool {
	for _, a := range ctl.Atoms(p.Formula) {
		if !sys.IsTotal(a) {
			return true
		}
	}
	return false
}

// Result is what a model checker says about one model of a case, for
// Level.Compare.
type Result struct {
	Exact     bool
	States    int64
	Deadlocks int64
	Concrete  int64 // configurations represented; -1 when the checker does not count them
	Verdicts  []PropertyVerdict
}

// Compare returns how r differs from what the level expects, or nil.
func (l *Level) Compare(r Result) error {
	var diffs []string
	if r.Exact != l.Exact {
		diffs = append(diffs, fmt.Sprintf("exact %v, want %v", r.Exact, l.Exact))
	}
	if r.States != l.States || r.Deadlocks != l.Deadlocks {
		diffs = append(diffs, fmt.Sprintf("%d states and %d deadlocks, want %d and %d", r.States, r.Deadlocks, l.States, l.Deadlocks))
	}
	if r.Concrete >= 0 && l.Concrete >= 0 && r.Concrete != l.Concrete {
		diffs = append(diffs, fmt.Sprintf("%d configurations, want %d", r.Concrete, l.Concrete))
	}
	if len(r.Verdicts) != len(l.Properties) {
		diffs = append(diffs, fmt.Sprintf("%d verdicts, want %d", len(r.Verdicts), len(l.Properties)))
	}
	for _, v := range r.Verdicts {
		if holds, ok := l.Holds(v.Name); !ok || holds != v.Holds {
			diffs = append(diffs, fmt.Sprintf("property %s holds %v, want %v (listed: %v)", v.Name, v.Holds, holds, ok))
		}
	}
	if diffs == nil {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(diffs, "; "))
}
