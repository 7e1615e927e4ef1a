package analysis

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/explore"
	"github.com/vsym/vsym/explore/explicit"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
)

// freeModel returns the group-counter model of q processes of one group
// moving freely among m states (L0 -> L1 -> ... -> L0): its counter
// space is C(q+m-1, m-1). props are its properties, as "EF" (EF #L1 >= 1),
// "AG" (AG #L0 <= q) or "EF-fair" (EF with a justice condition).
func freeModel(t *testing.T, q, m int, props ...string) *counterabs.Model {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name: free\ngroups:\n  p: %d\nstates: [", q)
	for i := 0; i < m; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "L%d", i)
	}
	b.WriteString("]\ninit: L0\ntransitions:\n")
	for i := 0; i < m; i++ {
		fmt.Fprintf(&b, "  - {from: L%d, to: L%d}\n", i, (i+1)%m)
	}
	fair := false
	if len(props) > 0 {
		b.WriteString("properties:\n")
		for i, p := range props {
			switch p {
			case "EF":
				fmt.Fprintf(&b, "  p%d: \"EF #L1 >= 1\"\n", i)
			case "EF-fair":
				fmt.Fprintf(&b, "  p%d: \"EF #L1 >= 1\"\n", i)
				fair = true
			case "AG":
				fmt.Fprintf(&b, "  p%d: \"AG #L0 <= %d\"\n", i, q)
			}
		}
	}
	if fair {
		b.WriteString("fairness:\n  justice: [\"#L0 >= 1\"]\n")
	}
	sys, err := gsst.Parse("free.yaml", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	model, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// TestEngines: the named engines, and auto as explore.Auto over the
// explicit and the BDD engine (whose rule explore/symbolic's tests check).
func TestEngines(t *testing.T) {
	m := freeModel(t, 15, 10, "EF", "AG")
	bdd := symbolic.DefaultBDD()
	bdd.Order = symbolic.Blocked
	for name, want := range map[string]explore.Engine{"explicit": explicit.Engine{}, "bdd": bdd, "auto": explore.Auto{Explicit: explicit.Engine{}, Symbolic: bdd}} {
		es, err := Engines(name, m, bdd)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 1 || !reflect.DeepEqual(es[0], want) {
			t.Errorf("%s: %#v, want %#v", name, es, want)
		}
	}
	_, err := Engines("fast", freeModel(t, 2, 2), symbolic.DefaultBDD())
	if errkind.Of(err) != errkind.Input {
		t.Errorf("unknown engine: %v, want an input error", err)
	}
}

// limitEngine stops with a state limit whenever it is bounded below its
// states, and counts its runs.
type limitEngine struct {
	name   string
	states int64
	runs   *int
}

func (e limitEngine) Name() string { return e.name }
func (e limitEngine) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	*e.runs++
	cfg := explore.NewConfig(opts...)
	if cfg.MaxStates > 0 && e.states > cfg.MaxStates {
		return nil, &explore.LimitError{Kind: "states", Limit: cfg.MaxStates, States: cfg.MaxStates + 1}
	}
	return &explore.Report{Stats: explore.Stats{Engine: e.name}}, nil
}

// TestCheckFallback: an engine that outgrows the budget hands over to
// the next, but not when the caller's own bound stopped it, and the last
// engine runs under the caller's bound only.
func TestCheckFallback(t *testing.T) {
	defer func(n int64) { reachExplicitStates = n }(reachExplicitStates)
	reachExplicitStates = 100
	m := freeModel(t, 2, 2)
	for _, tc := range []struct {
		name      string
		states    int64 // of the first engine
		maxStates int64
		want      string // engines that ran, then the report's engine or the error's kind
	}{
		{"within budget", 50, 0, "[first] first"},
		{"over budget", 500, 0, "[first second] second"},
		{"caller's bound below budget", 50, 10, "[first] resource limit"},
		{"caller's bound above budget", 500, 1000, "[first second] second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := 0
			engines := []explore.Engine{limitEngine{"first", tc.states, &runs}, limitEngine{"second", 0, &runs}}
			rep, ran, err := check(context.Background(), engines, m, tc.maxStates)
			got := fmt.Sprint(ran)
			switch {
			case err != nil:
				got += " " + errkind.Of(err).String()
			default:
				got += " " + rep.Stats.Engine
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if runs != len(ran) {
				t.Errorf("%d runs, %d names", runs, len(ran))
			}
		})
	}
	var le *explore.LimitError
	if _, _, err := check(context.Background(), []explore.Engine{limitEngine{"only", 500, new(int)}}, m, 10); !errors.As(err, &le) {
		t.Errorf("the last engine's limit: %v", err)
	}
}
