package analysis

import (
	"fmt"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/explore/symbolic"
	"github.com/vsym/vsym/gsst"
)

// freeModel returns the group-counter model of q processes of one group
// moving freely among m states: its counter space is C(q+m-1, m-1).
func freeModel(t *testing.T, q, m int) *counterabs.Model {
	t.Helper()
	sys := &gsst.System{Name: "free", Groups: []gsst.Group{{Name: "p", Size: q}}, Init: [][]int{make([]int, m)}}
	sys.Init[0][0] = q
	for i := 0; i < m; i++ {
		sys.States = append(sys.States, fmt.Sprintf("L%d", i))
	}
	model, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

func TestChooseEngine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		engine string
		q, m   int
		want   string
	}{
		{"auto, small space", "auto", 10, 10, "explicit"}, // 92,378 counter vectors
		{"auto, large space", "auto", 15, 10, "bdd"},      // 1,307,504
		{"explicit", "explicit", 15, 10, "explicit"},
		{"bdd", "bdd", 10, 10, "bdd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := freeModel(t, tc.q, tc.m)
			e, err := ChooseEngine(tc.engine, m, symbolic.DefaultBDD())
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Name(); got != tc.want {
				t.Errorf("%s on space %v: %s, want %s", tc.engine, m.CounterSpace(), got, tc.want)
			}
		})
	}
	if _, err := ChooseEngine("fast", freeModel(t, 2, 2), symbolic.DefaultBDD()); err == nil {
		t.Error("unknown engine accepted")
	}
}
