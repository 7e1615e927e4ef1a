package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore"
)

// ReportJSON is rep in indented JSON without its stats, the one part of
// a report that may depend on the engine (explore.Stats): two engines
// given the same model and options must write the same ReportJSON, byte
// for byte, counts and traces included.
func ReportJSON(rep *explore.Report) (string, error) {
	r := *rep
	r.Stats = explore.Stats{}
	b, err := json.MarshalIndent(&r, "", " ")
	return string(b), err
}

// twins is an engine that runs two engines on every model it is given
// and fails the test when their reports differ (ReportJSON) or only one
// of them answers; it returns the first engine's answer. Suite.Run puts
// a Suite's Engine and Twin behind it, so every check of the suite also
// checks that the two agree.
type twins struct {
	t    *testing.T
	a, b explore.Engine
}

func (tw twins) Name() string { return tw.a.Name() }

func (tw twins) Check(ctx context.Context, m *counterabs.Model, opts ...explore.Option) (*explore.Report, error) {
	ra, errA := tw.a.Check(ctx, m, opts...)
	rb, errB := tw.b.Check(ctx, m, opts...)
	where := fmt.Sprintf("%s model of %s", m.Level, m.System.Name)
	switch {
	case (errA == nil) != (errB == nil):
		tw.t.Errorf("%s: %s says %v, %s %v", where, tw.a.Name(), errA, tw.b.Name(), errB)
	case errA == nil:
		ja, err := ReportJSON(ra)
		if err != nil {
			tw.t.Fatal(err)
		}
		jb, err := ReportJSON(rb)
		if err != nil {
			tw.t.Fatal(err)
		}
		if ja != jb {
			tw.t.Errorf("%s: the reports of %s and %s differ: %s", where, tw.a.Name(), tw.b.Name(), firstDifference(ja, jb))
		}
	}
	return ra, errA
}

// firstDifference shows where two texts first differ, with a few lines
// of context.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	from := max(i-6, 0)
	near := func(ls []string) string { return strings.Join(ls[from:min(i+3, len(ls))], "\n") }
	return fmt.Sprintf("line %d:\n%s\n--- against ---\n%s", i+1, near(la), near(lb))
}
