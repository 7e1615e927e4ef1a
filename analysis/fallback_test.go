package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// TestQueryWorkFallback: under --model auto, a certification query that
// runs out of its work budget gives way to the group-counter model,
// which is exact, with the reason in words; with the default budget the
// same system gets the total-counter model. The budget is counted in
// Z3's resource limit, so the outcome is the same under any load (the
// 10 s time budget this replaced fell back on a loaded machine).
// --model total does not fall back: it is refused as unknown. -short
// takes GR&W with 200 groups and half the budget, which runs out in the
// same query (L2 -> L3) for the same reason, at a third of the CPU time.
func TestQueryWorkFallback(t *testing.T) {
	groups, work := 300, int64(100000)
	if testing.Short() {
		groups, work = 200, 50000
	}
	src, err := specs.GRW(groups, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse("grw.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto, QueryWork: work})
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != counterabs.GroupLevel || !strings.Contains(m.Reason, "out of work") || !strings.Contains(m.Reason, "group-counter model is exact") {
		t.Fatalf("with a budget of %d units: %s model, reason %q; want the group-counter model and why", work, m.Level, m.Reason)
	}
	t.Log(m.Reason)
	_, err = buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Total, QueryWork: work})
	if errkind.Of(err) != errkind.Unknown || !strings.Contains(err.Error(), "out of work") {
		t.Fatalf("--model total with a budget of %d units: %v (%v), want unknown for want of work", work, err, errkind.Of(err))
	}
	full, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto})
	if err != nil {
		t.Fatal(err)
	}
	if full.Level != counterabs.TotalLevel {
		t.Fatalf("with the default budget: %s model (%s); want the total-counter model", full.Level, full.Reason)
	}
}
