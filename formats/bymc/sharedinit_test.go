package bymc_test

import (
	"strings"
	"testing"

	"github.com/vsym/vsym/formats/bymc"
	"github.com/vsym/vsym/formats/formatstest"
)

// sharedInitTA is an automaton whose shared variable nsnt starts as
// INITS say (a placeholder for conditions on it): the processes start
// in loc0 and loc1, and those in loc0 accept once nsnt >= 1.
const sharedInitTA = `skel Proc {
  local pc;
  shared nsnt, nacc;
  parameters N;
  assumptions (0) { N >= 1; }
  locations (0) { loc0: [0]; loc1: [1]; locAC: [2]; }
  inits (0) { (loc0 + loc1) == N; locAC == 0; nacc == 0; INITS }
  rules (0) {
  0: loc1 -> locAC when (true) do { nsnt' == nsnt + 1; nacc' == nacc + 1; };
  1: loc0 -> locAC when (nsnt >= 1) do { nsnt' == nsnt + 1; nacc' == nacc + 1; };
  }
  specifications (0) {
    unforg: (loc1 == 0) -> [](locAC == 0);
    small: [](nsnt <= N);
  }
}
`

// TestSharedInitBounds checks how the reader takes the initial
// conditions of a shared variable: none (any natural number, 0..), and
// bounds that make a range from a constant to a value over the
// parameters, each cross-checked against the automaton's own semantics
// (free values up to the number of processes on both sides); the other
// forms are refused as a SharedInitRange at the condition.
func TestSharedInitBounds(t *testing.T) {
	for _, tc := range []struct{ inits, init string }{
		{"", "0.."},
		{"nsnt <= N;", "0..N"},
		{"nsnt < 2;", "0..1"},
		{"nsnt >= 1;", "1.."},
		{"nsnt > 0; nsnt <= N;", "1..N"},
		{"N - 1 >= nsnt;", "0..N - 1"},
		{"nsnt >= -3;", "0.."},
		{"nsnt == 0;", "0"},
	} {
		src := strings.Replace(sharedInitTA, "INITS", tc.inits, 1)
		imp := bymc.Translate("s.ta", []byte(src))
		if out := formatstest.Outcome(imp); out != "" {
			t.Errorf("%q: %s", tc.inits, out)
			continue
		}
		if got := imp.Spec.InitText(0); got != tc.init {
			t.Errorf("%q: nsnt starts at %q, want %q", tc.inits, got, tc.init)
		}
		if n := crossCheck(t, "s.ta", []byte(src), 3); n < 2 {
			t.Errorf("%q: %d instances cross-checked", tc.inits, n)
		}
	}
	for _, tc := range []struct{ inits, want string }{
		{"nsnt != 1;", "7:58: inits: shared variable nsnt starts at any value with nsnt != 1"},
		{"nsnt >= N;", "7:58: inits: shared variable nsnt starts at any value with nsnt >= N, a least value over the parameters"},
		{"nsnt <= N; nsnt <= 3;", "7:69: inits: shared variable nsnt has two greatest initial values"},
		{"nsnt >= 1; nsnt > 2;", "7:69: inits: shared variable nsnt has two least initial values"},
		{"nsnt == 0; nsnt <= 2;", "7:69: inits: shared variable nsnt is given both an initial value and a bound"},
		{"nsnt <= 2; nsnt == 0;", "7:69: inits: shared variable nsnt is given both an initial value and a bound"},
	} {
		src := strings.Replace(sharedInitTA, "INITS", tc.inits, 1)
		imp := bymc.Translate("s.ta", []byte(src))
		if out := formatstest.Outcome(imp); out != "SharedInitRange" {
			t.Errorf("%q: the reader makes %q of it, want SharedInitRange", tc.inits, out)
		}
		if err := imp.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.inits, err, tc.want)
		}
	}
}
