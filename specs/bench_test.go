package specs

import (
	"testing"

	"github.com/vsym/vsym/gsst"
)

// TestBenchFamilies: every benchmark family parses (gsst checks states,
// groups, guards and properties) with the processes, states and
// properties its comment promises, and bad parameters are refused.
func TestBenchFamilies(t *testing.T) {
	tests := []struct {
		name                string
		gen                 func() ([]byte, error)
		procs, states, prop int
		fair                bool
	}{
		{"ladder", func() ([]byte, error) { return Ladder(3, 20, false) }, 60, 3, 3, false},
		{"ladder fair", func() ([]byte, error) { return Ladder(2, 5, true) }, 10, 3, 3, true},
		{"pool", func() ([]byte, error) { return Pool(1000) }, 1000, 3, 3, false},
		{"ring", func() ([]byte, error) { return Ring(10000) }, 10000, 4, 4, false},
		{"mesh", func() ([]byte, error) { return Mesh(3, 2) }, 18, 3, 3, false},
		{"threshold", func() ([]byte, error) { return Threshold(11, 3, 5) }, 11, 12, 9, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := tc.gen()
			if err != nil {
				t.Fatal(err)
			}
			sys, err := gsst.Parse(tc.name+".yaml", src)
			if err != nil {
				t.Fatalf("does not parse: %v\n%s", err, src)
			}
			n := 0
			for _, g := range sys.Groups {
				n += g.Size
			}
			if n != tc.procs || len(sys.States) != tc.states || len(sys.Properties) != tc.prop || (len(sys.Fairness.Weak) > 0) != tc.fair {
				t.Errorf("%d processes, %d states, %d properties, weak fairness %v; want %d, %d, %d, %v",
					n, len(sys.States), len(sys.Properties), len(sys.Fairness.Weak) > 0, tc.procs, tc.states, tc.prop, tc.fair)
			}
		})
	}
	for name, gen := range map[string]func() ([]byte, error){
		"ladder 0 levels":    func() ([]byte, error) { return Ladder(0, 2, false) },
		"ladder 0 procs":     func() ([]byte, error) { return Ladder(2, 0, false) },
		"pool 0":             func() ([]byte, error) { return Pool(0) },
		"ring 1":             func() ([]byte, error) { return Ring(1) },
		"mesh too big":       func() ([]byte, error) { return Mesh(MaxMesh+1, 1) },
		"threshold n <= 3t":  func() ([]byte, error) { return Threshold(9, 3, 1) },
		"threshold ones > n": func() ([]byte, error) { return Threshold(4, 1, 5) },
	} {
		if _, err := gen(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
