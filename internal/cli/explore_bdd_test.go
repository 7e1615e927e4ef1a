package cli

import (
	"strings"
	"testing"
)

// The BDD engine honours --max-states on the reachable count, and refuses
// it when reachable states are not computed.
func TestBDDMaxStates(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		code     int
		stderrRE string
	}{
		{[]string{"explore", "--engine", "bdd", "--max-states", "2", "../../specs/readers-writers.yaml"}, ExitUnknown, "state limit of 2"},
		{[]string{"explore", "--engine", "bdd", "--max-states", "7", "../../specs/readers-writers.yaml"}, ExitOK, ""},
		{[]string{"explore", "--engine", "bdd", "--bdd-no-reach", "--max-states", "7", "../../specs/readers-writers.yaml"}, ExitBadInput, "--bdd-no-reach"},
	} {
		var out, errb strings.Builder
		code := Main(tc.args, &out, &errb)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d; stderr: %s", tc.args, code, tc.code, errb.String())
		}
		if tc.stderrRE != "" && !strings.Contains(errb.String(), tc.stderrRE) {
			t.Errorf("%v: stderr %q does not mention %q", tc.args, errb.String(), tc.stderrRE)
		}
		if tc.code != ExitOK && strings.Contains(out.String(), "holds") {
			t.Errorf("%v: a stopped run printed a verdict: %s", tc.args, out.String())
		}
	}
}
