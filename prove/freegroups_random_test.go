package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/detect"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// randomController writes a random system with a controller: a group
// proc of processes in A, B, C and a group ctl of one process in states
// V0, V1 of its own, which moves alone by blocks naming its group and
// with a proc process by rendezvous parts naming it (a shared variable
// written as a process: gsst's FreeGroups drops those lists). Some
// systems let ctl step into A too, so that a block, part or transfer
// naming proc or ctl out of A is read by the runs and must stay (a ctl
// list among them, dropped, would let proc's processes take ctl's
// steps, or be carried by its transfer).
func randomController(r *rand.Rand) string {
	procStates := []string{"A", "B", "C"}
	all := []string{"A", "B", "C", "V0", "V1"}
	atom := func() string {
		st := all[r.Intn(len(all))]
		switch r.Intn(4) {
		case 0:
			return fmt.Sprintf("#%s = 0", st)
		case 1:
			return fmt.Sprintf("#%s >= %d", st, 1+r.Intn(2))
		case 2:
			return fmt.Sprintf("#%s <= %d", st, r.Intn(2))
		}
		return fmt.Sprintf("#%s = 1", st)
	}
	guard := func() string {
		if r.Intn(3) == 0 {
			return "true"
		}
		if r.Intn(2) == 0 {
			return atom() + " & " + atom()
		}
		return atom() + " | " + atom()
	}
	sizes := []string{"1..", "2", "1..3"}
	var b strings.Builder
	leak := r.Intn(2) == 0
	size := sizes[r.Intn(len(sizes))]
	if leak {
		// Two processes of proc, whose blocks only they take: ctl, in
		// A, leaves it only by steps of its own, and #B + #C <= 2
		// holds, where a ctl that took proc's would make it 3.
		size = "2"
	}
	fmt.Fprintf(&b, "states: [A, B, C, V0, V1]\ngroups: {proc: %s, ctl: 1}\ninit: {proc: A, ctl: V0}\ntransitions:\n", size)
	for k := range 2 + r.Intn(3) {
		from := procStates[r.Intn(3)]
		to := procStates[(indexOf(procStates, from)+1+r.Intn(2))%3]
		if leak || r.Intn(2) == 0 {
			// A block of proc alone: read by the runs where ctl may
			// step into proc's states.
			fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: {proc: %q}", k, from, to, guard())
		} else {
			fmt.Fprintf(&b, "  - {name: t%d, from: %s, to: %s, guard: %q", k, from, to, guard())
		}
		if r.Intn(4) == 0 {
			src := procStates[r.Intn(3)]
			if src != from && src != to {
				// A transfer of any group's processes, or of proc's:
				// the model as written has ctl's counters of src and to,
				// which stay 0 (the free model has none to say so).
				list := " [proc]"
				if r.Intn(2) == 0 {
					list = ""
				}
				fmt.Fprintf(&b, ", broadcast: [\"%s -> %s%s\"]", src, to, list)
			}
		}
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, "  - {name: c0, from: V0, to: V1, guard: {ctl: %q}}\n", guard())
	fmt.Fprintf(&b, "  - {name: c1, from: V1, to: V0, guard: {ctl: %q}}\n", guard())
	if leak {
		b.WriteString("  - {name: c2, from: V0, to: A, guard: {ctl: \"true\"}}\n")
		// Lists naming ctl out of A, where proc's processes are too.
		fmt.Fprintf(&b, "  - {name: c3, from: A, to: V1, guard: {ctl: %q}}\n", guard())
		fmt.Fprintf(&b, "  - {name: t9, from: B, to: C, guard: {proc: %q}, broadcast: [\"A -> V1 [ctl]\"]}\n", guard())
	}
	b.WriteString("rendezvous:\n")
	for range 1 + r.Intn(3) {
		from := procStates[r.Intn(3)]
		to := procStates[r.Intn(3)]
		v0, v1 := r.Intn(2), r.Intn(2)
		own := ""
		if leak && from == "A" && r.Intn(2) == 0 {
			own = ", groups: [proc]"
		}
		fmt.Fprintf(&b, "  - {parts: [{from: %s, to: %s%s}, {from: V%d, to: V%d, groups: [ctl]}], guard: %q}\n", from, to, own, v0, v1, guard())
	}
	if leak {
		fmt.Fprintf(&b, "  - {parts: [{from: B, to: A, groups: [proc]}, {from: A, to: V0, groups: [ctl]}], guard: %q}\n", guard())
	}
	b.WriteString("properties:\n")
	for k := range 3 {
		p := atom()
		if r.Intn(2) == 0 {
			p = "!(" + atom() + " & " + atom() + ")"
		}
		fmt.Fprintf(&b, "  p%d: %q\n", k, "AG "+p)
	}
	if leak {
		b.WriteString("  leak: \"AG #B + #C <= 2\"\n")
	}
	// A liveness property, under a justice condition half the time:
	// its certificate is carried by carryLiveVia, its lasso asked again.
	goal := atom()
	fmt.Fprintf(&b, "  live: %q\n", "AF "+goal)
	if r.Intn(2) == 0 {
		if r.Intn(2) == 0 {
			goal = atom()
		}
		fmt.Fprintf(&b, "fairness:\n  justice: [%q]\n", goal)
	}
	return b.String()
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// TestFreeGroupsRandom cross-checks prove.Check on random systems with
// a controller group (randomController) against explicit exploration of
// every instance in the box: a property proved holds in every state
// reached (for the liveness property, on every fair run), one refuted
// fails at its instance; and against the answers with the freeing off.
// Every safety proof found with the lists dropped must be a certificate
// of the model as written (checkAsWritten), no proof may be of a
// total-counter model the system as written is not certified for, and
// the report's certification must be the system as written's. The free
// system itself is checked against the system as written by exploring
// both (sameReachable). It counts the answers found with the lists
// dropped and carried to the system as written (their reason says so),
// which a carrying that never succeeds would leave at 0.
func TestFreeGroupsRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 16
	}
	r := rand.New(rand.NewSource(2611))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	confirmed, freed, freedProofs, freedLive, sameReach := 0, 0, 0, 0, 0
	for i := range systems {
		src := randomController(r)
		sys, err := gsst.Parse(fmt.Sprintf("ctl%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep := proveBothWays(t, ctx, s, i, sys, src, prove.SetGroupFreeing, "with the lists dropped", "without")
		for _, res := range rep.Results {
			counts[res.Verdict]++
			if strings.Contains(res.LevelReason, "group lists no run reads dropped") {
				freed++
				if res.Verdict == prove.Proved {
					freedProofs++
				}
			}
		}
		// The system as written is not certified (its parts name ctl),
		// the free one may be: the report's certification must be the
		// former's.
		cert, err := detect.Certify(ctx, sys, s)
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if rep.Cert != nil && rep.Cert.Certified() != cert.Certified() {
			t.Errorf("system %d: the report's certification says %v, the system as written's %v\n%s", i, rep.Cert.Certified(), cert.Certified(), src)
		}
		for k, res := range rep.Results {
			if res.Verdict == prove.Proved && res.Level == counterabs.TotalLevel && !cert.Certified() {
				// A certificate of the free system's total-counter
				// model, not re-checked on the model as written.
				t.Errorf("system %d: %s proved on the total-counter model, which the system as written does not have (%s)\n%s", i, sys.Properties[k].Name, res.LevelReason, src)
			}
			if res.Verdict == prove.Proved && res.Live == nil && strings.Contains(res.LevelReason, "group lists no run reads dropped") {
				// The certificate is of the model as written, not of
				// the free one's.
				checkAsWritten(t, ctx, s, i, sys, k, res)
			}
		}
		// The last property is the liveness one, which exploration of
		// the group-counter model with its fairness checks.
		confirmed += checkSafetyAndLive(t, i, sys, rep, src)
		live := len(sys.Properties) - 1
		if res := rep.Results[live]; res.Verdict == prove.Proved && strings.Contains(res.LevelReason, "group lists no run reads dropped") {
			freedLive++
		}
		if free, ok, err := sys.FreeGroups(); err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		} else if ok {
			sameReach += sameReachable(t, i, sys, free)
		}
	}
	t.Logf("%d systems: %v; answered with the lists dropped %d (proofs %d, of liveness %d); safety refutations confirmed by exploration %d; free systems with the same reachable configurations %d", systems, counts, freed, freedProofs, freedLive, confirmed, sameReach)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || freedProofs < systems/2 || freedLive == 0 || confirmed < systems/5 || sameReach < systems/2 {
		t.Errorf("the sample exercises too little")
	}
}

// proveBothWays proves sys's properties as prove does, and again with
// the stage that set turns off, and reports a property decided both
// ways with different verdicts (on and off say how each way asked it).
// It returns the report of the first.
func proveBothWays(t *testing.T, ctx context.Context, s *z3.Solver, i int, sys *gsst.System, src string, set func(bool) func(), on, off string) *prove.Report {
	t.Helper()
	rep, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatalf("system %d: %v\n%s", i, err, src)
	}
	restore := set(false)
	plain, err := prove.Check(ctx, sys, s, s, prove.MaxWork(extWork))
	restore()
	if err != nil {
		t.Fatalf("system %d: %v\n%s", i, err, src)
	}
	decided := func(v prove.Verdict) bool { return v == prove.Proved || v == prove.Refuted }
	for k, res := range rep.Results {
		if want := plain.Results[k].Verdict; decided(res.Verdict) && decided(want) && res.Verdict != want {
			t.Errorf("system %d: %s is %v %s, %v %s\n%s", i, sys.Properties[k].Name, res.Verdict, on, want, off, src)
		}
	}
	return rep
}

// checkLiveByExploration checks res, the answer to sys's liveness
// property, against explicit exploration of the group-counter model of
// every instance up to 2 processes a group, with its fairness: proved,
// it holds at each; refuted, it fails at the instance res names.
func checkLiveByExploration(t *testing.T, i int, sys *gsst.System, res prove.Result, src string) {
	t.Helper()
	name := res.Property.Name
	for _, sizes := range testsupport.Box(sys, 2) {
		inst, err := sys.Instantiate(sizes)
		if err != nil {
			t.Fatalf("system %d at %v: %v", i, sizes, err)
		}
		holds := explorePhase(t, inst)
		switch {
		case holds == nil:
		case res.Verdict == prove.Proved && !holds[name]:
			t.Errorf("system %d at %v: %s (%s) proved (%s), fails by exploration\n%s", i, sizes, name, res.Property.Text, res.LevelReason, src)
		case res.Verdict == prove.Refuted && holds[name] && slices.Equal(res.Sizes, sizes):
			t.Errorf("system %d at %v: %s (%s) refuted there, holds by exploration\n%s", i, sizes, name, res.Property.Text, src)
		}
	}
}

// sameReachable checks FreeGroups' claim on sys and free (sys with the
// lists no run reads dropped) by exploring both at every instance in the
// box: the same configurations are reached. It returns 1 when they are,
// 0 after reporting the first instance where they are not.
func sameReachable(t *testing.T, i int, sys, free *gsst.System) int {
	t.Helper()
	keys := func(sys *gsst.System, inst testsupport.Instance) []string {
		var out []string
		for _, st := range explore(sys, inst) {
			out = append(out, st.key())
		}
		slices.Sort(out)
		return out
	}
	for _, inst := range testsupport.Instances(sys, extParamMax, extSizeMax) {
		if written, freed := keys(sys, inst), keys(free, inst); !slices.Equal(written, freed) {
			t.Errorf("system %d at %v: %d configurations reached as written, %d with the lists dropped\n%s\nfree:\n%s",
				i, inst, len(written), len(freed), testsupport.Describe(sys), testsupport.Describe(free))
			return 0
		}
	}
	return 1
}

// TestFreeGroupsController proves Cubicle's germanish5 with its shared
// boolean written as a controller process (testdata/styles/germanish5-ctlproc.yaml)
// within the random tests' work budget, on the system with the
// controller's lists dropped, and carries the invariant back, a
// certificate of the model as written (checkAsWritten): as written, the
// system is not certified and its group-counter question does not end
// within the budget, and the invariant re-checks there only with the
// counters firing finds stay 0.
func TestFreeGroupsController(t *testing.T) {
	sys, err := gsst.Load("../testdata/styles/germanish5-ctlproc.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := z3.New()
	rep, err := prove.Check(context.Background(), sys, s, s, prove.MaxWork(extWork))
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results[0]
	if res.Verdict != prove.Proved || !strings.Contains(res.LevelReason, "group lists no run reads dropped") || !strings.Contains(res.LevelReason, "re-checked on the system as written") {
		t.Fatalf("%s: %v (%s), want proved with the lists dropped and the certificate re-checked as written", sys.Properties[0].Name, res.Verdict, res.LevelReason)
	}
	checkAsWritten(t, context.Background(), s, 0, sys, 0, res)
}
