package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestControllersRandom cross-checks prove.Check on random systems with
// controllers (testsupport.RandomControlled: shared variables written as
// groups of one process, each write a rendezvous with it) against
// explicit exploration of every instance in the box: a property proved
// holds in every state reached (the liveness property on every fair
// run), one refuted fails at its instance, whose run replays there;
// and against the answers with the controllers read as written. It
// counts the proofs carried (safety and liveness) and the runs replayed
// from the system read
// to the system as written, which a carrying that never succeeds would
// leave at 0.
func TestControllersRandom(t *testing.T) {
	systems := 40
	if testing.Short() {
		systems = 14
	}
	r := rand.New(rand.NewSource(2903))
	s := z3.New()
	ctx := context.Background()
	counts := map[prove.Verdict]int{}
	confirmed, carried, carriedLive, replayed := 0, 0, 0, 0
	groups := []string{"{p: 1.., q: 1}", "{p: 1..2, q: 1}", "{p: 1.., q: 1..2}"}
	for i := range systems {
		src := testsupport.RandomControlled(r, groups[r.Intn(len(groups))])
		sys, err := gsst.Parse(fmt.Sprintf("ctl%d.yaml", i), []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		rep := proveBothWays(t, ctx, s, i, sys, src, prove.SetControllersShared, "with the controllers read as shared variables", "as written")
		for _, res := range rep.Results {
			counts[res.Verdict]++
			if strings.Contains(res.LevelReason, "read as shared variables") {
				switch res.Verdict {
				case prove.Proved:
					carried++
					if res.Live != nil {
						carriedLive++
					}
				case prove.Refuted:
					replayed++
				}
			}
		}
		confirmed += checkSafetyAndLive(t, i, sys, rep, src)
	}
	t.Logf("%d systems: %v; from the system read %d proofs carried (%d of liveness) and %d runs replayed; safety refutations confirmed by exploration %d", systems, counts, carried, carriedLive, replayed, confirmed)
	if counts[prove.Proved] < systems/2 || counts[prove.Refuted] < systems/4 || carried < systems/4 || carriedLive == 0 || replayed < systems/5 || confirmed < systems/5 {
		t.Errorf("the sample exercises too little")
	}
}

// TestControllersTampered gives prove, as the system read, the
// controllers of systems of other runs. In one the rendezvous that sets
// the flag is never enabled: its proofs (the flag stays false) are too
// strong to re-check as written, where stay is refuted and safe proved.
// In the other the flag may be set from C too, so that safe (no process
// in C while the flag is set) fails there: that run does not replay as
// written and is asked again, where safe holds, while its run refuting
// stay (set as written) replays. The system itself, read so, has every
// answer carried.
func TestControllersTampered(t *testing.T) {
	written := `states: [A, B, C, F0, F1]
groups: {p: 1..2, f: 1}
init: {p: A, f: F0}
transitions:
- {name: leave, from: A, to: C, guard: "#F1 = 0"}
rendezvous:
- {name: set, parts: [{from: A, to: B}, {from: F0, to: F1}]}
properties:
  safe: "AG !(#F1 = 1 & #C >= 1 & #A = 0 & #B = 0)"
  stay: "AG #F1 = 0"
`
	parse := func(name, src string) *gsst.System {
		sys, err := gsst.Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return sys
	}
	sys := parse("written.yaml", written)
	read := func(other *gsst.System) *gsst.Controlled {
		c, ok, err := other.ControllersAsShared()
		if err != nil || !ok {
			t.Fatalf("%s: no controller read (%v)", other.Name, err)
		}
		return c
	}
	fewer := read(parse("fewer.yaml", strings.Replace(written, "{from: F0, to: F1}]}", "{from: F0, to: F1}], guard: \"#C >= 5\"}", 1)))
	more := read(parse("more.yaml", strings.Replace(written, "rendezvous:\n", "rendezvous:\n- {name: also, parts: [{from: C, to: C}, {from: F0, to: F1}]}\n", 1)))
	asWritten := map[string]prove.Verdict{"safe": prove.Proved, "stay": prove.Refuted}
	s := z3.New()
	for _, tc := range []struct {
		name    string
		c       *gsst.Controlled
		carried []string
	}{
		{"fewer runs", fewer, nil},
		{"more runs", more, []string{"stay"}},
		{"the same", read(sys), []string{"safe", "stay"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore := prove.SetSameRunsControlled(func(*gsst.System) *gsst.Controlled { return tc.c })
			defer restore()
			rep, err := prove.Check(context.Background(), sys, s, s)
			if err != nil {
				t.Fatal(err)
			}
			for _, res := range rep.Results {
				name := res.Property.Name
				if res.Verdict != asWritten[name] {
					t.Errorf("%s: %v (%s), want %v", name, res.Verdict, res.LevelReason, asWritten[name])
				}
				if got := strings.Contains(res.LevelReason, "tampered"); got != slices.Contains(tc.carried, name) {
					t.Errorf("%s: answer of the system read reported: %v, want %v (%s)", name, got, !got, res.LevelReason)
				}
			}
		})
	}
}
