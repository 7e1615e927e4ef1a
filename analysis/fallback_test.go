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
// --model total does not fall back: it is refused as unknown.
func TestQueryWorkFallback(t *testing.T) {
	src, err := specs.GRW(300, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse("grw.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto, QueryWork: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != counterabs.GroupLevel || !strings.Contains(m.Reason, "out of work") || !strings.Contains(m.Reason, "group-counter model is exact") {
		t.Fatalf("with a budget of 1 unit: %s model, reason %q; want the group-counter model and why", m.Level, m.Reason)
	}
	_, err = buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Total, QueryWork: 100000})
	if errkind.Of(err) != errkind.Unknown || !strings.Contains(err.Error(), "out of work") {
		t.Fatalf("--model total with a budget of 1 unit: %v (%v), want unknown for want of work", err, errkind.Of(err))
	}
	full, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto})
	if err != nil {
		t.Fatal(err)
	}
	if full.Level != counterabs.TotalLevel {
		t.Fatalf("with the default budget: %s model (%s); want the total-counter model", full.Level, full.Reason)
	}
}
