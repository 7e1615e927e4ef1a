package gsst_test

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
)

// TestSliceUnreadRandom checks SliceUnread on random systems (families
// among them, whose parameters follow the shared variables and so are
// renumbered) with write-only variables added (testsupport's
// AddWriteOnly): it leaves out exactly the added variables that nothing
// that matters reads and that never block a step, and the system's own
// variables that it leaves out of the system without them; when every
// added variable is of that kind, the sliced system is, written out,
// the one sliced from the system without them.
func TestSliceUnreadRandom(t *testing.T) {
	systems := 400
	if testing.Short() {
		systems = 100
	}
	r := rand.New(rand.NewSource(2026_11_30_1))
	kept, cut, same := 0, 0, 0
	for i := range systems {
		cfg := testsupport.Config{MaxGroups: 3, MaxSize: 2, MaxProcesses: 5, MaxTransitions: 4, Properties: 1}
		cfg.May = testsupport.AllConstructs | testsupport.InitialSets
		cfg.Family = i%2 == 0
		plain := testsupport.RandomSystem(r, cfg)
		with, want, err := testsupport.AddWriteOnly(r, plain, testsupport.WriteOnly{Sliceable: i%4 == 0})
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(plain))
		}
		plainCut, own, err := plain.SliceUnread()
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		sliced, got, err := with.SliceUnread()
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, testsupport.Describe(with))
		}
		// The system's own variables: those it slices without the
		// write-only ones, and at most those an environment step
		// assigns besides (a step that must change something keeps
		// what it assigns only while it assigns nothing kept).
		var gotOwn, gotAdded []string
		for _, name := range got {
			if strings.HasPrefix(name, "ghost") {
				gotAdded = append(gotAdded, name)
			} else {
				gotOwn = append(gotOwn, name)
			}
		}
		if !slices.Equal(gotAdded, want) {
			t.Fatalf("system %d: sliced %v, want %v\n%s", i, got, want, testsupport.Describe(with))
		}
		for _, name := range own {
			if !slices.Contains(gotOwn, name) {
				t.Fatalf("system %d: %s sliced without the write-only variables, not with them\n%s", i, name, testsupport.Describe(with))
			}
		}
		for _, name := range gotOwn {
			if !slices.Contains(own, name) && !assignedByEnvironment(plain, name) {
				t.Fatalf("system %d: %s sliced with the write-only variables, not without them\n%s", i, name, testsupport.Describe(with))
			}
		}
		want = append(slices.Clone(own), want...)
		added := len(with.Shared) - len(plain.Shared)
		cut += len(want) - len(own)
		kept += added - (len(want) - len(own))
		for _, name := range got {
			if slices.ContainsFunc(sliced.Shared, func(v gsst.Shared) bool { return v.Name == name }) {
				t.Fatalf("system %d: %s sliced but still declared", i, name)
			}
		}
		if len(sliced.Shared)+len(got) != len(with.Shared) {
			t.Fatalf("system %d: %d shared variables, %d sliced, %d left", i, len(with.Shared), len(got), len(sliced.Shared))
		}
		if len(want)-len(own) == added && len(gotOwn) == len(own) {
			a, b := testsupport.YAML(sliced), testsupport.YAML(plainCut)
			if a != b {
				t.Fatalf("system %d: sliced with its write-only variables\n%s\nbut without them\n%s", i, a, b)
			}
			same++
		}
		// No step of the sliced system assigns a variable left out, and
		// its updates' texts name none.
		for _, st := range sliced.Steps() {
			for _, name := range got {
				if strings.Contains(st.Update.Text, name+" :=") {
					t.Fatalf("system %d: update %q of the sliced system assigns %s", i, st.Update.Text, name)
				}
			}
		}
	}
	t.Logf("%d systems: %d write-only variables sliced, %d kept; %d sliced systems compared whole", systems, cut, kept, same)
	if cut < systems/2 || kept < systems/2 || same < systems/10 {
		t.Errorf("the sample exercises too little: %d sliced, %d kept, %d compared", cut, kept, same)
	}
}

// assignedByEnvironment says whether an environment step of sys assigns
// the shared variable name.
func assignedByEnvironment(sys *gsst.System, name string) bool {
	for _, e := range sys.Environment {
		for _, a := range e.Update.Assign {
			if j, _ := sys.SharedOf(a.Var); sys.Shared[j].Name == name {
				return true
			}
		}
	}
	return false
}
