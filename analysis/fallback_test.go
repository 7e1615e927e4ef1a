package analysis

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

// TestTotalBudgetFallback: under --model auto, a total-counter model that
// takes longer than its budget to certify and build gives way to the
// group-counter model, which is exact, with the reason in words; with
// enough time the same system gets the total-counter model. GR&W with 300 groups needs some
// hundreds of milliseconds of Z3 for its total-counter model (and no
// solver at all for its group-counter model).
func TestTotalBudgetFallback(t *testing.T) {
	src, err := specs.GRW(300, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := gsst.Parse("grw.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto, TotalBudget: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if m.Level != counterabs.GroupLevel || !strings.Contains(m.Reason, "did not finish within 20ms") || !strings.Contains(m.Reason, "group-counter model is exact") {
		t.Fatalf("with a 20ms budget: %s model, reason %q; want the group-counter model and why", m.Level, m.Reason)
	}
	// The budget is for --model auto only: --model total waits (and so
	// does --timeout, which bounds the whole command).
	if _, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Total, TotalBudget: time.Nanosecond}); err != nil {
		t.Fatalf("--model total with a 1ns budget: %v", err)
	}
	if testing.Short() {
		return
	}
	full, err := buildModel(ctx, sys, ModelRequest{File: "grw.yaml", Level: Auto})
	if err != nil {
		t.Fatal(err)
	}
	if full.Level != counterabs.TotalLevel {
		t.Fatalf("with the default budget: %s model (%s); want the total-counter model", full.Level, full.Reason)
	}
}

// TestTotalBudget: half of what is left of the context, at most the
// budget asked for or the default.
func TestTotalBudget(t *testing.T) {
	if d := totalBudget(context.Background(), ModelRequest{}); d != defaultTotalBudget {
		t.Errorf("no deadline: %v, want %v", d, defaultTotalBudget)
	}
	// An hour left: the default. 4s left: at most half of it (how much
	// less depends on how long the test waited to run: no lower bound).
	hour, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if d := totalBudget(hour, ModelRequest{}); d != defaultTotalBudget {
		t.Errorf("an hour left: %v, want %v", d, defaultTotalBudget)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	if d := totalBudget(ctx, ModelRequest{}); d > 2*time.Second {
		t.Errorf("4s left: %v, want at most 2s", d)
	}
	if d := totalBudget(ctx, ModelRequest{TotalBudget: time.Millisecond}); d != time.Millisecond {
		t.Errorf("1ms asked: %v", d)
	}
}
