package prove_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
	"github.com/vsym/vsym/presburger/z3"
	"github.com/vsym/vsym/prove"
)

// TestCoverTwinsRandom cross-checks the merging of twin variables
// (covertwins.go) on random hubs whose hub is written as twins
// (randomTwinHub), with near misses, by the oracles of checkCoverRandom
// (exploration of every instance up to extSizeMax processes, the run
// replayed and the fixpoint's complement checked on the model, Spacer
// but under -short) and the search without the merge, which must answer
// alike (measured, seed 29, 400 systems: 800 properties, 464 searches
// merging twins, all agreeing with the search without; -short, 150
// systems: 2 CPU-s). A second twin starting with processes taken for
// one that starts empty, or a run whose steps are not taken by the
// copies the configurations enable, fails it under -short.
func TestCoverTwinsRandom(t *testing.T) {
	systems := 200
	if testing.Short() {
		systems = 150
	}
	checkCoverRandom(t, 29, systems, 0, 0, coverTwins)
}

// TestCoverTwinsBroken: the cross-check of TestCoverTwinsRandom catches
// a merge of variables whose keys differ (seed 30, 40 systems, each
// with a rule whose copy from S2 has another guard: 18 errors caught
// under -short).
func TestCoverTwinsBroken(t *testing.T) {
	checkCoverBroken(t, "the merging of twins", prove.BreakTwins, &twinMiss, 1, 30, coverTwins)
}

// TestCoverTwinsHub: the search on testdata/styles/pncsacover-stsplit.yaml,
// mist's pncsacover with its hub written as twins, merges them and the
// rule states, fuses what is left of the rule states into the hub as on
// the base, and finds a run that replays on the model; without the
// merge it fuses nothing.
func TestCoverTwinsHub(t *testing.T) {
	checkCoverHub(t, "styles", "pncsacover-stsplit.yaml", func(a prove.CoverAnswer) bool { return a.Twins > 0 && a.Fused > 0 },
		"twins merged and rule states fused", prove.WithoutTwins)
}

// twinMiss, when not -1, is the kind of near miss of every system
// randomTwinHub draws (TestCoverTwinsBroken).
var twinMiss = -1

// randomTwinHub draws a hub as randomHub does and writes its hub S as
// twins S and S2: every rule written once from each, each return going
// to S, to S2 or to both, the processes starting in S or (one time in
// two) in S2, and a property reading #S read as #S + #S2 one time in
// two. Each system is
// one time in three a near miss of one of these kinds: a rule has no copy
// from S2; its copy has another guard; a step moves a process from S2
// to S; a rule asks for two processes in S and its copy for two in S2;
// the property reads #S alone (and the near misses of randomHub, which
// read S).
func randomTwinHub(t *testing.T, r *rand.Rand) *gsst.System {
	text := randomHubText(r)
	miss := -1
	if r.Intn(3) == 0 {
		miss = r.Intn(5)
	}
	if twinMiss >= 0 {
		miss = twinMiss
	}
	var b strings.Builder
	rule, missRule := 0, -1
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "  - {from: S, ") {
			rule++
		}
	}
	if rule > 0 {
		missRule = r.Intn(rule)
	}
	rule = 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "name: hub"):
			b.WriteString(l + "\n")
		case strings.HasPrefix(l, "states: [S"):
			b.WriteString(strings.Replace(l, "[S", "[S, S2", 1) + "\n")
		case strings.HasPrefix(l, "  net: S") && r.Intn(2) == 0:
			b.WriteString("  net: S2\n")
		case strings.HasPrefix(l, "  - {from: S, "):
			copyOf := strings.Replace(l, "{from: S, ", "{from: S2, ", 1)
			switch {
			case rule == missRule && miss == 0:
				copyOf = ""
			case rule == missRule && miss == 1:
				copyOf = strings.Replace(copyOf, `guard: "`, `guard: "x0 >= 3 & `, 1)
			case rule == missRule && miss == 3:
				l = strings.Replace(l, `guard: "`, `guard: "#S >= 2 & `, 1)
				copyOf = strings.Replace(copyOf, `guard: "`, `guard: "#S2 >= 2 & `, 1)
			}
			b.WriteString(l + "\n")
			if copyOf != "" {
				b.WriteString(copyOf + "\n")
			}
			rule++
		case strings.Contains(l, ", to: S}") || strings.Contains(l, ", to: S,"):
			switch r.Intn(3) {
			case 0:
				b.WriteString(l + "\n")
			case 1:
				b.WriteString(strings.Replace(l, ", to: S", ", to: S2", 1) + "\n")
			default:
				b.WriteString(l + "\n" + strings.Replace(l, ", to: S", ", to: S2", 1) + "\n")
			}
		case strings.HasPrefix(l, "  target:") && miss == 4:
			b.WriteString(strings.Replace(l, "AG !(", "AG !(#S >= 1 & ", 1) + "\n")
		case strings.HasPrefix(l, "  target:") && r.Intn(2) == 0:
			b.WriteString(strings.ReplaceAll(l, "#S >= 1", "#S + #S2 >= 1") + "\n")
		case miss == 2 && (strings.HasPrefix(l, "environment:") || strings.HasPrefix(l, "properties:") && !strings.Contains(text, "\nenvironment:")):
			// The step from S2 to S, last of the transitions.
			b.WriteString("  - {from: S2, to: S}\n" + l + "\n")
		default:
			b.WriteString(l + "\n")
		}
	}
	return parseHub(t, b.String())
}

// TestCoverTwinsRefused: twins that something reads otherwise than by
// the steps that take from them are not merged, where merging them
// would find a run the system does not have: a rule that asks for two
// processes in S (its copy two in S2), whose two processes end one in
// each; a property that reads #S alone, whose process ends in S2; and
// two places that both start with a token are not merged either, where
// the merge would leave one behind. The controls, the same systems
// without the reading (one place starting empty, which a rule fills),
// merge them.
func TestCoverTwinsRefused(t *testing.T) {
	const hub = `name: twins
states: [S, S2, r]
groups: {net: %s}
init: {net: S}
shared:
  x0: {type: "0..", init: 0}
transitions:
  - {from: S, to: r, %supdate: "x0 := x0 + 1"}
  - {from: S2, to: r, %supdate: "x0 := x0 + 1"}
  - {from: r, to: S2}
properties:
  target: "AG !(%s)"
`
	// Two places read only by the rules that take a token from them,
	// alike: twins, but for their starts (the control's second place
	// starts empty, and a third rule fills it).
	const places = `name: places
states: [S, r]
groups: {net: 1}
init: {net: S}
shared:
  xa: {type: "0..", init: 1}
  xb: {type: "0..", init: %d}
  y: {type: "0..", init: 0}
transitions:
  - {from: S, to: r, name: ta, guard: "xa >= 1", update: "xa := xa - 1; y := y + 1"}
  - {from: S, to: r, name: tb, guard: "xb >= 1", update: "xb := xb - 1; y := y + 1"}
  - {from: r, to: S}%s
properties:
  target: "AG !(y >= 2)"
`
	for _, c := range []struct {
		name              string
		size, g1, g2, bad string
		merged, refuted   bool
		places            string // the system instead of the hub's
	}{
		{"guard reads two in S", "2", `guard: "#S >= 2", `, `guard: "#S2 >= 2", `, "x0 >= 2", false, false, ""},
		{"guard reads two in S, control", "2", "", "", "x0 >= 2", true, true, ""},
		{"property reads S", "1", "", "", "#S >= 1 & x0 >= 1", false, false, ""},
		{"property reads S, control", "1", "", "", "#S + #S2 >= 1 & x0 >= 1", false, true, ""},
		{"property reads neither, control", "1", "", "", "x0 >= 1", true, true, ""},
		{"both start with a token", "", "", "", "", false, true, fmt.Sprintf(places, 1, "")},
		{"both start with a token, control", "", "", "", "", true, true, fmt.Sprintf(places, 0, "\n  - {from: S, to: r, name: tc, update: \"xb := xb + 1\"}")},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, s := context.Background(), z3.New()
			text := fmt.Sprintf(hub, c.size, c.g1, c.g2, c.bad)
			if c.places != "" {
				text = c.places
			}
			sys := parseHub(t, text)
			m, ts := safetyOf(t, s, sys)
			a := prove.Cover(ctx, m, ts, coverRandomWork)
			if (a.Twins > 0) != c.merged || (a.Cex != nil) != c.refuted || a.Cex == nil && a.Invariant == nil {
				t.Fatalf("%d merged, a run %v, a proof %v; want merged %v, refuted %v", a.Twins, a.Cex != nil, a.Invariant != nil, c.merged, c.refuted)
			}
			if a.Cex != nil {
				if err := presburger.Replay(ctx, s, ts, *a.Cex); err != nil {
					t.Fatalf("the run does not replay: %v", err)
				}
			} else if err := presburger.CheckInvariant(ctx, s, ts, a.Invariant); err != nil {
				t.Fatalf("the fixpoint's complement is no invariant: %v", err)
			}
		})
	}
}
