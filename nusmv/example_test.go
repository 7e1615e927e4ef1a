package nusmv_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/nusmv"
	"github.com/vsym/vsym/presburger"
)

// A counter model built by hand: two processes move freely from Idle to
// Busy, and back only while another is idle, so when both are busy
// nothing is enabled and the model stutters. The property (false here)
// says that they are never both busy.
func Example() {
	idle, busy := presburger.Var(0), presburger.Var(1)
	atLeast := func(v presburger.Var, k int64) presburger.Formula {
		return presburger.Compare(presburger.VarTerm(v), presburger.Ge, presburger.ConstTerm(k))
	}
	sys, err := gsst.New(&gsst.Spec{
		Name:   "ring",
		States: []string{"Idle", "Busy"},
		Groups: []gsst.Group{{Name: "p", Size: 2}},
		Init:   [][]int{{2, 0}},
		Transitions: []gsst.Transition{
			{From: 0, To: 1, Blocks: []gsst.Block{{Groups: []int{0}, Guard: presburger.True}}},
			{From: 1, To: 0, Blocks: []gsst.Block{{Groups: []int{0}, Guard: atLeast(idle, 1)}}},
		},
		Properties: []gsst.Property{{
			Name:    "not-both",
			Formula: ctl.Unary{Op: ctl.AG, X: ctl.Atom{P: presburger.Compare(presburger.VarTerm(busy), presburger.Le, presburger.ConstTerm(1))}},
			Text:    "AG #Busy <= 1",
		}},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	m, err := counterabs.Assemble(sys, counterabs.TotalLevel, []counterabs.Transition{
		{From: 0, To: 1, Guard: atLeast(idle, 1), Local: 0, Group: -1},
		{From: 1, To: 0, Guard: presburger.Conj(atLeast(busy, 1), atLeast(idle, 1)), Local: 1, Group: -1},
	}, true)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	var b strings.Builder
	if err := nusmv.WriteReduced(&b, m); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	// Print the model without its header comment.
	text := b.String()
	fmt.Print(text[strings.Index(text, "MODULE"):])
	// Output:
	// MODULE main
	// VAR
	//   x_Idle : 0..2;
	//   x_Busy : 0..2;
	// IVAR
	//   tr : {t_Idle_Busy, t_Busy_Idle, stutter};
	// DEFINE
	//   en_t_Idle_Busy := x_Idle >= 1;
	//   en_t_Busy_Idle := x_Busy >= 1 & x_Idle >= 1;
	//   en_any := en_t_Idle_Busy | en_t_Busy_Idle;
	// ASSIGN
	//   init(x_Idle) := 2;
	//   init(x_Busy) := 0;
	//   next(x_Idle) := case
	//       tr = t_Idle_Busy & en_t_Idle_Busy : x_Idle - 1;
	//       tr = t_Busy_Idle & en_t_Busy_Idle & x_Idle < 2 : x_Idle + 1;
	//       TRUE : x_Idle;
	//     esac;
	//   next(x_Busy) := case
	//       tr = t_Idle_Busy & en_t_Idle_Busy & x_Busy < 2 : x_Busy + 1;
	//       tr = t_Busy_Idle & en_t_Busy_Idle : x_Busy - 1;
	//       TRUE : x_Busy;
	//     esac;
	// TRANS (tr = stutter -> !en_any)
	//   & (tr != stutter -> (tr = t_Idle_Busy & en_t_Idle_Busy | tr = t_Busy_Idle & en_t_Busy_Idle));
	// CTLSPEC NAME not_both := AG (x_Busy <= 1);
}
