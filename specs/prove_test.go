package specs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestProveExamples runs vsym prove's Check on the examples of issues 20
// and 21: the mist protocols of testdata/coverability and the bundled
// systems with shared variables, rendezvous and broadcast, with their
// mutated variants. Each file says what it is meant to show: every safety
// property of a protocol or a bundled system holds for every size, and
// every -broken variant has a safety property that fails. Every answer
// is checked independently on the instances with 1..3 processes per
// group of variable size, explored by gsstSucc (coverability_test.go):
// a proved property holds in every reachable configuration, and a
// refuted one fails in some reachable configuration of the refuting
// instance. A reachability property (a sanity check EF c) is checked
// by checkReach.
func TestProveExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 on 17 systems")
	}
	var files []string
	cov, err := filepath.Glob(filepath.Join("..", "testdata", "coverability", "*.yaml"))
	if err != nil || len(cov) < 7 {
		t.Fatalf("coverability files: %v, %v", cov, err)
	}
	files = append(files, cov...)
	for _, s := range []string{"mesi", "producer-consumer", "resource-pool", "peterson", "lock-mutex"} {
		files = append(files, s+".yaml", s+"-broken.yaml")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sys, err := gsst.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			s := z3.New()
			rep, err := prove.Check(context.Background(), sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			broken := strings.HasSuffix(file, "-broken.yaml")
			refuted := 0
			for _, r := range rep.Results {
				phi, ok := safety(r.Property.Formula)
				if c, isReach := reachability(r.Property.Formula); isReach {
					checkReach(t, sys, r, c)
					continue
				}
				switch {
				case r.Verdict == prove.Skipped:
					if ok {
						t.Errorf("%s: a safety property skipped: %s", r.Property.Name, r.Reason)
					}
				case r.Verdict == prove.Proved:
					if broken {
						continue // the mutation need not break every property
					}
					for _, inst := range smallInstances(t, sys) {
						if c, bad := violation(inst, phi); bad {
							t.Errorf("%s proved, but it fails at sizes %v in %v", r.Property.Name, sizesOf(inst), c.y)
						}
					}
				case r.Verdict == prove.Refuted:
					refuted++
					if !broken {
						t.Errorf("%s refuted at %v in a system meant to be correct", r.Property.Name, r.Sizes)
					}
					inst, err := sys.Instantiate(r.Sizes)
					if err != nil {
						t.Fatal(err)
					}
					if _, bad := violation(inst, phi); !bad {
						t.Errorf("%s refuted at %v, but no reachable configuration there violates it", r.Property.Name, r.Sizes)
					}
				default:
					t.Errorf("%s: %v: %s", r.Property.Name, r.Verdict, r.Reason)
				}
			}
			if broken && refuted == 0 {
				t.Errorf("no property of the mutated variant refuted")
			}
		})
	}
}

// reachability returns c when f is EF c with c a state formula.
func reachability(f ctl.Formula) (ctl.Formula, bool) {
	u, ok := f.(ctl.Unary)
	if !ok || u.Op != ctl.EF || !stateFormula(u.X) {
		return nil, false
	}
	return u.X, true
}

// checkReach checks prove's answer r on the reachability property EF c
// of sys (the bundled specs' sanity checks) on the instances with 1..3
// processes per group of variable size: proved (a family of one
// instance) when some reachable configuration satisfies c, refuted at
// every size when none does at any of them; unknown is the answer on a
// family whose condition some instance reaches.
func checkReach(t *testing.T, sys *gsst.System, r prove.Result, c ctl.Formula) {
	t.Helper()
	not := ctl.Not{X: c}
	switch r.Verdict {
	case prove.Proved:
		for _, inst := range smallInstances(t, sys) {
			if _, reached := violation(inst, not); !reached {
				t.Errorf("%s proved, but no reachable configuration satisfies its condition at sizes %v", r.Property.Name, sizesOf(inst))
			}
		}
	case prove.Refuted:
		for _, inst := range smallInstances(t, sys) {
			if cf, reached := violation(inst, not); reached {
				t.Errorf("%s refuted at every size, but %v reaches its condition at sizes %v", r.Property.Name, cf.y, sizesOf(inst))
			}
		}
	case prove.Unknown:
	default:
		t.Errorf("%s: %v: %s", r.Property.Name, r.Verdict, r.Reason)
	}
}

// safety returns phi when f is AG phi with phi a state formula.
func safety(f ctl.Formula) (ctl.Formula, bool) {
	u, ok := f.(ctl.Unary)
	if !ok || u.Op != ctl.AG || !stateFormula(u.X) {
		return nil, false
	}
	return u.X, true
}

func stateFormula(f ctl.Formula) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return true
	case ctl.Not:
		return stateFormula(f.X)
	case ctl.Binary:
		return stateFormula(f.L) && stateFormula(f.R)
	}
	return false
}

// holds evaluates a state formula in val.
func holds(f ctl.Formula, val func(presburger.Var) int64) bool {
	switch f := f.(type) {
	case ctl.Atom:
		return presburger.Eval(f.P, val)
	case ctl.Not:
		return !holds(f.X, val)
	case ctl.Binary:
		l, r := holds(f.L, val), holds(f.R, val)
		switch f.Op {
		case ctl.And:
			return l && r
		case ctl.Or:
			return l || r
		case ctl.Implies:
			return !l || r
		}
	}
	panic("not a state formula")
}

// violation explores sys (an instance) and returns a reachable
// configuration where phi is false.
func violation(sys *gsst.System, phi ctl.Formula) (conf, bool) {
	init := conf{y: sys.Init}
	for _, v := range sys.Shared {
		init.shared = append(init.shared, v.Init)
	}
	init = init.clone()
	seen := map[string]bool{init.key(): true}
	todo := []conf{init}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if !holds(phi, sys.Valuation(c.y, c.shared)) {
			return c, true
		}
		for _, d := range gsstSucc(sys, c) {
			if !seen[d.key()] {
				seen[d.key()] = true
				todo = append(todo, d)
			}
		}
	}
	return conf{}, false
}

// smallInstances returns the instances of sys with 1..3 processes in each
// group of variable size (the others keep their size).
func smallInstances(t *testing.T, sys *gsst.System) []*gsst.System {
	sizes := [][]int{{}}
	for _, g := range sys.Groups {
		var next [][]int
		for _, s := range sizes {
			if !g.Ranged {
				next = append(next, append(append([]int(nil), s...), g.Size))
				continue
			}
			for k := g.Size; k <= 3 && g.Allows(k); k++ {
				next = append(next, append(append([]int(nil), s...), k))
			}
		}
		sizes = next
	}
	var out []*gsst.System
	for _, s := range sizes {
		inst, err := sys.Instantiate(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, inst)
	}
	if len(out) == 0 {
		t.Fatal("no instance")
	}
	return out
}

func sizesOf(sys *gsst.System) []int {
	var out []int
	for _, g := range sys.Groups {
		out = append(out, g.Size)
	}
	return out
}
