package nusmv

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// family parses a member of a generated family (specs.GRW, specs.ASR).
func family(name string, src []byte, err error) (*gsst.System, error) {
	if err != nil {
		return nil, err
	}
	sys, err := gsst.Parse(name+".yaml", src)
	if sys != nil {
		sys.File = name + ".yaml (generated)"
	}
	return sys, err
}

func grw(d, q, m int) (*gsst.System, error) {
	src, err := specs.GRW(d, q, m)
	return family(fmt.Sprintf("grw-d%d-q%d-m%d", d, q, m), src, err)
}

func asr(n, r, b int) (*gsst.System, error) {
	src, err := specs.ASR(n, r, b)
	return family(fmt.Sprintf("asr-n%d-r%d-b%d", n, r, b), src, err)
}

// familyCases lists generated family members for the golden tests.
func familyCases() []goldenCase {
	var out []goldenCase
	for _, p := range [][3]int{{2, 2, 4}, {3, 1, 3}} {
		p := p
		out = append(out, goldenCase{fmt.Sprintf("grw-d%d-q%d-m%d", p[0], p[1], p[2]), func() (*gsst.System, error) { return grw(p[0], p[1], p[2]) }})
	}
	for _, p := range [][3]int{{4, 2, 2}, {3, 3, 1}} {
		p := p
		out = append(out, goldenCase{fmt.Sprintf("asr-n%d-r%d-b%d", p[0], p[1], p[2]), func() (*gsst.System, error) { return asr(p[0], p[1], p[2]) }})
	}
	return out
}

// TestReducedSizeIndependentOfN: the reduced model of GR&W does not grow
// with the number of processes, only the digits of n change.
func TestReducedSizeIndependentOfN(t *testing.T) {
	size := func(q int) int {
		sys, err := grw(2, q, 4)
		if err != nil {
			t.Fatal(err)
		}
		m, err := buildModel(sys, false)
		if err != nil {
			t.Fatal(err)
		}
		text, err := Reduced(m)
		if err != nil {
			t.Fatal(err)
		}
		return len(text)
	}
	small, large := size(1), size(500)
	if large-small > 60 {
		t.Fatalf("reduced GR&W grows with n: %d bytes for n=2, %d for n=1000", small, large)
	}
	t.Logf("reduced GR&W(2, q, 4): %d bytes for n=2, %d for n=1000", small, large)
}
