package prove_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/analysis"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// bymcCases are ByMC's liveness properties of the ISoLA'18 suite
// (isola18/ta/check-all.sh, without injected bugs), translated by hand
// in testdata/bymc (README.md there says how), with vsym's verdict. The
// published verdict of every one is "holds", and vsym proves every one.
// cf1s fast0 and bosco fast0 were unknown until the premise's condition
// on the parameters restricted the model (premiseScope in liveness.go:
// cf1s's f = 0 leaves the crashes dead, and the counts of messages sent
// follow; bosco's "f = 0 & n > 5*t | n > 7*t" lets Spacer discharge the
// obligations within the default work).
var bymcCases = []struct {
	file, property string
	want           prove.Verdict
}{
	{"strb.yaml", "corr", prove.Proved},
	{"strb.yaml", "relay", prove.Proved},
	{"frb.yaml", "corr", prove.Proved},
	{"frb.yaml", "relay", prove.Proved},
	{"aba.yaml", "corr", prove.Proved},
	{"aba.yaml", "agreement", prove.Proved},
	{"nbacr-nocrash.yaml", "termination1", prove.Proved},
	{"nbacr.yaml", "termination2", prove.Proved},
	{"nbacr-nontriv.yaml", "nontriv", prove.Proved},
	{"nbacg.yaml", "termination", prove.Proved},
	{"cf1s.yaml", "fast0", prove.Proved},
	{"c1cs.yaml", "fast0", prove.Proved},
	{"bosco.yaml", "fast0", prove.Proved},
	{"cc.yaml", "termination", prove.Proved},
}

// TestByMCLiveness runs vsym prove on each translated property: none
// may be refuted (every one holds, as published), each gets the verdict
// of bymcCases, an unknown one for want of work (Result.Exhausted, not
// time), and a proved one holds on every instance with parameters up to
// 3 under explicit exploration.
func TestByMCLiveness(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 on 14 liveness properties")
	}
	// Each query bounded by Z3's resource limit, as vsym prove bounds
	// it (analysis.QueryWork), so that a regression ends in an unknown
	// the test reports, not in the package's timeout.
	s := z3.New(z3.Work(analysis.QueryWork))
	for _, tc := range bymcCases {
		t.Run(tc.file+"/"+tc.property, func(t *testing.T) {
			sys, err := gsst.Load(filepath.Join("..", "testdata", "bymc", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			k := -1
			for i, p := range sys.Properties {
				if p.Name == tc.property {
					k = i
				}
			}
			if k < 0 {
				t.Fatalf("no property %s", tc.property)
			}
			sys = sys.WithProperties(k)
			// Spacer takes part in c1cs's and bosco's proofs; vsym
			// prove's default work bound on each property, the same on
			// every machine, decides the unknown ones.
			rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(analysis.PropertyWork))
			if err != nil {
				t.Fatal(err)
			}
			r := rep.Results[0]
			t.Logf("%v in %s: %s", r.Verdict, r.Duration, r.Reason)
			switch {
			case r.Verdict == prove.Refuted:
				t.Fatalf("refuted at %v, but ByMC's published verdict is that it holds", r.Params)
			case r.Verdict != tc.want:
				t.Errorf("%v (%s), want %v", r.Verdict, r.Reason, tc.want)
			case r.Verdict == prove.Unknown && r.Exhausted != prove.ProverWork:
				t.Errorf("unknown (%s), want unknown for want of work, not stopped by time", r.Reason)
			}
			if r.Verdict != prove.Proved {
				return
			}
			for _, in := range testsupport.Instances(sys, 3, extSizeMax) {
				if holds, ok := exploreHolds(t, sys, in, 0); ok && !holds {
					t.Errorf("proved, but exploration finds it failing at %v", in)
				}
			}
		})
	}
}

// crashedAsStates names the variant of a ByMC file with no nfaulty: its
// crash steps guarded by the count of the crashed states' processes
// ("#CR + #CRS < f").
const crashedAsStates = "crashed counted in their states"

// withoutNfaulty returns src, a ByMC file with crash steps "nfaulty < f"
// that add one to nfaulty, with the crashed counted in their states
// instead (the candidate lemma "#CR + #CRS <= f" must come of the guard).
func withoutNfaulty(t *testing.T, src string) string {
	crashed := "#CR"
	if strings.Contains(src, "to: CRS") {
		crashed = "#CR + #CRS"
	}
	src = strings.ReplaceAll(src, "  nfaulty: {type: \"0..\", init: 0}\n", "")
	src = strings.ReplaceAll(src, ", update: \"nfaulty := nfaulty + 1\"}", "}")
	src = strings.ReplaceAll(src, "; nfaulty := nfaulty + 1", "")
	src = strings.ReplaceAll(src, "nfaulty < f", crashed+" < f")
	for _, line := range strings.Split(src, "\n") {
		if strings.Contains(line, "nfaulty") && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			t.Fatalf("nfaulty left in %q", line)
		}
	}
	return src
}

// TestByMCLivenessRewritten proves the liveness properties whose crash
// steps are guarded by "nfaulty < f" (c1cs, cc, cf1s, frb) with that
// guard written the other ways a translator may write it: the candidate
// lemma "nfaulty <= f" (rank.go) must come of each, or the proof falls
// to the prover's search of the settled runs, which ran out of work on
// c1cs written with "nfaulty <= f - 1"; and with no nfaulty at all, the
// crashed counted in their states ("#CR + #CRS <= f"). Under -short,
// c1cs alone.
func TestByMCLivenessRewritten(t *testing.T) {
	cases := bymcCases
	if testing.Short() {
		cases = nil
		for _, tc := range bymcCases {
			if tc.file == "c1cs.yaml" {
				cases = append(cases, tc)
			}
		}
	}
	s := z3.New(z3.Work(analysis.QueryWork))
	for _, tc := range cases {
		path := filepath.Join("..", "testdata", "bymc", tc.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "nfaulty < f") {
			continue
		}
		for _, guard := range []string{"nfaulty <= f - 1", "nfaulty + 1 <= f", "f > nfaulty", "!(nfaulty >= f)", crashedAsStates} {
			t.Run(tc.file+"/"+tc.property+"/"+guard, func(t *testing.T) {
				text := strings.ReplaceAll(string(src), "nfaulty < f", guard)
				if guard == crashedAsStates {
					text = withoutNfaulty(t, string(src))
				}
				sys, err := gsst.Parse(path, []byte(text))
				if err != nil {
					t.Fatal(err)
				}
				k := slices.IndexFunc(sys.Properties, func(p gsst.Property) bool { return p.Name == tc.property })
				rep, err := prove.Check(context.Background(), sys.WithProperties(k), s, s, prove.MaxWork(analysis.PropertyWork))
				if err != nil {
					t.Fatal(err)
				}
				if r := rep.Results[0]; r.Verdict != tc.want {
					t.Errorf("%v (%s), want %v as with \"nfaulty < f\"", r.Verdict, r.Reason, tc.want)
				}
			})
		}
	}
}
