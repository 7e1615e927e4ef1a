package specs

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger/z3"
)

// TestParamSpecsCertified: the bundled parametric specs and the
// generated families with ranges of sizes are certified fully virtually
// symmetric for every size, as their comments argue.
func TestParamSpecsCertified(t *testing.T) {
	type spec struct {
		name string
		src  func() ([]byte, error)
	}
	bundled := func(name string) spec { return spec{name, func() ([]byte, error) { return Read(name) }} }
	list := []spec{bundled("readers-writers-param"), bundled("printers"), bundled("asr-param")}
	for _, d := range []int{1, 2, 10, 100} {
		for _, m := range []int{2, 4, 30} {
			list = append(list, spec{fmt.Sprintf("grw-%d-1..-%d", d, m), func() ([]byte, error) { return GRWSized(d, "1..", m) }})
		}
	}
	for _, r := range []int{1, 3, 10} {
		list = append(list, spec{fmt.Sprintf("asr-%d-1..", r), func() ([]byte, error) { return ASRSized(r, "1..", 2) }})
	}
	list = append(list, spec{"grw-3-2..5-4", func() ([]byte, error) { return GRWSized(3, "2..5", 4) }})
	s := z3.New()
	for _, sp := range list {
		t.Run(sp.name, func(t *testing.T) {
			src, err := sp.src()
			if err != nil {
				t.Fatal(err)
			}
			sys, err := gsst.Parse(sp.name+".yaml", src)
			if err != nil {
				t.Fatal(err)
			}
			if !sys.Parametric() {
				t.Fatal("not parametric")
			}
			rep, err := detect.Certify(context.Background(), sys, s)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Certified() {
				t.Errorf("verdict %v", rep.Verdict())
			}
		})
	}
}

// TestASRParamGenerated: the bundled ASR with ranges is the generator's
// output, so the two cannot drift apart.
func TestASRParamGenerated(t *testing.T) {
	want, err := ASRSized(3, "1..", 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read("asr-param")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("specs/asr-param.yaml differs from ASRSized(3, \"1..\", 2); regenerate it with\n  vsym gen asr --size 1.. --resources 3 -o specs/asr-param.yaml")
	}
}

// TestPrintersFailsFromThree checks the hand analysis in printers.yaml:
// capacity holds in exactly the instances with at most two processes,
// at every instance of staff 1..4, guest 1..4, with the explicit engine
// on the total-counter model and on the group-counter model; a failing
// instance's counterexample ends with three processes printing.
func TestPrintersFailsFromThree(t *testing.T) {
	src, err := Read("printers")
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse("printers.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	ctx := context.Background()
	for staff := 1; staff <= 4; staff++ {
		for guest := 1; guest <= 4; guest++ {
			inst, err := sys.Instantiate([]int{staff, guest})
			if err != nil {
				t.Fatal(err)
			}
			total, err := counterabs.Build(ctx, inst, s, s)
			if err != nil {
				t.Fatalf("staff=%d guest=%d: %v", staff, guest, err)
			}
			group, err := counterabs.BuildGroup(inst)
			if err != nil {
				t.Fatal(err)
			}
			want := staff+guest <= 2
			for _, m := range []*counterabs.Model{total, group} {
				rep, err := explicit.Engine{}.Check(ctx, m, explore.Properties("capacity"))
				if err != nil {
					t.Fatal(err)
				}
				res := rep.Properties[0]
				if res.Holds != want {
					t.Errorf("staff=%d guest=%d, %s model: capacity holds=%v, want %v", staff, guest, m.Level, res.Holds, want)
				}
				if !res.Holds {
					last := res.Trace.States[len(res.Trace.States)-1]
					if got := last.Counters[2]; got != 3 || len(res.Trace.States) != 7 {
						t.Errorf("staff=%d guest=%d, %s model: counterexample of %d states ends with #Printing=%d, want 7 states and 3",
							staff, guest, m.Level, len(res.Trace.States), got)
					}
				}
			}
		}
	}
}

func TestSizedParameterErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		gen  func() ([]byte, error)
		want string
	}{
		{"grw text", func() ([]byte, error) { return GRWSized(2, "x", 3) }, "is not a size"},
		{"grw open below", func() ([]byte, error) { return GRWSized(2, "..3", 3) }, "is not a size"},
		{"grw zero", func() ([]byte, error) { return GRWSized(2, "0..", 3) }, "must be in 1..1000000"},
		{"grw empty range", func() ([]byte, error) { return GRWSized(2, "3..2", 3) }, "must go from"},
		{"grw range too big", func() ([]byte, error) { return GRWSized(2, "1..2000000", 3) }, "must go from"},
		{"grw least sizes too many", func() ([]byte, error) { return GRWSized(1000, "1001..", 3) }, "exceed 1000000"},
		{"asr text", func() ([]byte, error) { return ASRSized(2, "1..x", 2) }, "is not a size"},
		{"asr r=0", func() ([]byte, error) { return ASRSized(0, "1..", 2) }, "number of resources 0"},
		{"asr b=0", func() ([]byte, error) { return ASRSized(2, "1..", 0) }, "bound 0"},
	} {
		if _, err := tt.gen(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}
