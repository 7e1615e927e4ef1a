package bymc_test

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/formats/bymc"
)

// TestSkelLenient reads what ByMC's older files write (cav15's
// fuse.sk): no specifications section, and no ";" after an action
// before "}"; and rules that repeat a label, as random19's and lmcs20's
// do, which become transitions named apart.
func TestSkelLenient(t *testing.T) {
	src := `skel Proc {
  local pc;
  shared x;
  parameters N;
  assumptions (1) { N > 1; }
  locations (3) { A: [0]; B: [1]; C: [2]; }
  inits (4) { A == N; B == 0; C == 0; x == 0; }
  rules (4) {
  1: A -> B when (x >= 0) do { x' == x + 1 };
  1: A -> B when (x >= 1) do { x' == x };
  2: B -> C when (x >= 1) do { x' == x + 1 };
  2: B -> C when (x >= 2) do { unchanged(x) };
  }
}
`
	imp := bymc.Translate("fuse.sk", []byte(src))
	if err := imp.Err(); err != nil {
		t.Fatal(err)
	}
	sys, err := imp.System()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range sys.Transitions {
		names = append(names, tr.Name)
	}
	if want := "[r1 r1_2 r2 r2_2]"; fmt.Sprint(names) != want {
		t.Errorf("transitions named %v, want %s", names, want)
	}
	if len(sys.Properties) != 0 {
		t.Errorf("%d properties from a file with none", len(sys.Properties))
	}
}
