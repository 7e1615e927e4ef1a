package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestProveLongCertificateOnce: properties proved together by one long
// invariant print it once; the others refer to the first. A ring of 80
// states with one process and a property "at most one" per state is
// proved by the conjunction of the 80 properties (a sum of 80 counters), which the report
// printed 80 times (a net with a property per place, hundreds: megabytes).
func TestProveLongCertificateOnce(t *testing.T) {
	const k = 80
	var src strings.Builder
	src.WriteString("name: ring\nstates: [")
	for i := range k {
		if i > 0 {
			src.WriteString(", ")
		}
		fmt.Fprintf(&src, "S%d", i)
	}
	src.WriteString("]\ngroups: {proc: 1}\ninit: S0\ntransitions:\n")
	for i := range k {
		fmt.Fprintf(&src, "  - {from: S%d, to: S%d}\n", i, (i+1)%k)
	}
	src.WriteString("properties:\n")
	for i := range k {
		fmt.Fprintf(&src, "  one%d: \"AG #S%d <= 1\"\n", i, i)
	}
	file := writeSpecs(t, []byte(src.String()))[0]
	out, errs, code := runVsym("prove", file)
	if code != ExitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	printed := strings.Count(out, "inductive invariant (re-checked): #")
	refs := strings.Count(out, "inductive invariant (re-checked): the one printed for property one0 above")
	if printed != 1 || refs != k-1 {
		t.Errorf("the invariant printed %d times, referred to %d times; want 1 and %d:\n%s", printed, refs, k-1, out)
	}
}
