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

// The report is the same whichever engine answers: on a model of at
// most analysis.CountSpace states both count the reachable states
// unasked (the BDD engine then computes them first); only the stats say
// which engine ran and how.
func TestBDDCountStates(t *testing.T) {
	spec := "../../specs/readers-writers.yaml"
	for _, tc := range []struct {
		args      []string
		method    string
		reachable string
	}{
		{[]string{"explore", "--engine", "bdd", "--output", "json", spec}, `"method": "reachable-first"`, `"reachable_states": 7`},
		{[]string{"explore", "--engine", "bdd", "--count-states", "--output", "json", spec}, `"method": "reachable-first"`, `"reachable_states": 7`},
		{[]string{"explore", "--engine", "explicit", "--output", "json", spec}, `"method": "forward"`, `"reachable_states": 7`},
	} {
		var out, errb strings.Builder
		if code := Main(tc.args, &out, &errb); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errb.String())
		}
		for _, want := range []string{tc.method, tc.reachable, `"name": "mutex"`, `"holds": true`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%v: output lacks %s:\n%s", tc.args, want, out.String())
			}
		}
	}
	var bdd, explicit, errb strings.Builder
	if code := Main([]string{"explore", "--engine", "bdd", spec}, &bdd, &errb); code != ExitOK {
		t.Fatalf("bdd: exit %d: %s", code, errb.String())
	}
	if code := Main([]string{"explore", "--engine", "explicit", spec}, &explicit, &errb); code != ExitOK {
		t.Fatalf("explicit: exit %d: %s", code, errb.String())
	}
	if bdd.String() != explicit.String() || !strings.Contains(bdd.String(), "reachable states: 7") {
		t.Errorf("text output of the BDD engine:\n%s\nof the explicit engine:\n%s", bdd.String(), explicit.String())
	}
	var out strings.Builder
	errb.Reset()
	if code := Main([]string{"explore", "--bdd-no-reach", "--count-states", spec}, &out, &errb); code != ExitBadInput {
		t.Errorf("--bdd-no-reach --count-states: exit %d, want %d: %s", code, ExitBadInput, errb.String())
	}
}
