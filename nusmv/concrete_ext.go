package nusmv

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/emit"
	"github.com/vsym/vsym/presburger"
)

// concreteSupports are the constructs beyond the paper that the concrete
// model carries (explore's TestNuSMV and this package's TestConcreteExt
// run them through NuSMV against the oracle).
const concreteSupports = gsst.ExtShared | gsst.ExtParams | gsst.ExtBroadcast | gsst.ExtRendezvous

// maxParts is the largest number of parts of a rendezvous of sys (1
// without rendezvous): one pick input variable per part.
func maxParts(sys *gsst.System) int {
	k := 1
	for _, r := range sys.Rendezvous {
		k = max(k, len(r.Parts))
	}
	return k
}

// rendezvousParts holds what the concrete model says about the
// rendezvous of a system.
type rendezvousParts struct {
	guard     []string // define of guard & update in range; "" when TRUE
	enabled   []string // distinct processes exist, and the guard holds
	defs      []string
	notes     []string
	boundName string // of the INVARSPEC that checks the bound
}

// concreteRendezvous writes the guards of the rendezvous of sys and when
// each is enabled: Hall's condition (for every set of parts, at least as
// many processes able to take one of them as parts in the set) says that
// distinct processes for the parts exist.
func concreteRendezvous(sys *gsst.System, sv *sharedVars, nm *namer, atom atomfn) (*rendezvousParts, error) {
	out := &rendezvousParts{}
	for r := range sys.Rendezvous {
		full, text := emit.RendezvousGuard(sys, sv.hi, r, true)
		name := ""
		if b, ok := full.(presburger.Bool); !ok || !bool(b) {
			name = nm.fresh(fmt.Sprintf("g_rv%d", r+1))
			f, err := formula(full, atom)
			if err != nil {
				return nil, exprError("guard of rendezvous "+emit.PartsText(sys, r), err)
			}
			out.defs = append(out.defs, fmt.Sprintf("  %s := %s;\n", name, f.s))
			out.notes = append(out.notes, fmt.Sprintf("--   %-12s rendezvous %s: %s\n", name, comment(emit.PartsText(sys, r)), comment(text)))
		}
		out.guard = append(out.guard, name)
		f, err := formula(presburger.Conj(emit.Hall(sys, r), full), atom)
		if err != nil {
			return nil, exprError("rendezvous "+emit.PartsText(sys, r), err)
		}
		out.enabled = append(out.enabled, f.in(precOr))
	}
	if emit.HasUnbounded(sys) {
		out.boundName = nm.fresh("bound_ok")
	}
	return out, nil
}

// concreteBound returns the invariant that checks the bound of the
// unbounded shared variables ("" when there are none or no update can
// exceed it): in no reachable configuration can a step, enabled in the
// system (its movers exist, its guard holds, its values lie in their
// domains with no upper bound), take an unbounded variable beyond its
// bound. The model leaves such steps out (its ranges stop at the bound),
// so its verdicts are the system's exactly when the invariant holds.
func concreteBound(sys *gsst.System, sv *sharedVars, atom atomfn, rv *rendezvousParts) (string, error) {
	if rv.boundName == "" {
		return "", nil
	}
	var overs []presburger.Formula
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for j := range t.Blocks {
			blk := &t.Blocks[j]
			over := sv.over(blk.Update.Assign)
			if over == nil {
				continue
			}
			var movers []presburger.Var
			for _, g := range blk.Groups {
				if blockIndex(t, g) == j {
					movers = append(movers, sys.GroupVar(t.From, g))
				}
			}
			if len(movers) == 0 {
				continue
			}
			exists := presburger.Compare(presburger.Sum(movers...), presburger.Ge, presburger.ConstTerm(1))
			overs = append(overs, presburger.Conj(exists, blk.Guard, sv.domain(blk.Update.Assign, false), over))
		}
	}
	for r := range sys.Rendezvous {
		rz := &sys.Rendezvous[r]
		over := sv.over(rz.Update.Assign)
		if over == nil {
			continue
		}
		g := rz.Guard
		if g == nil {
			g = presburger.True
		}
		overs = append(overs, presburger.Conj(emit.Hall(sys, r), g, sv.domain(rz.Update.Assign, false), over))
	}
	f, err := formula(presburger.Negation(presburger.Disj(overs...)), atom)
	if err != nil {
		return "", exprError("bound check", err)
	}
	return f.s, nil
}

// pickIn is the condition that pick chooses a process of one of groups
// ("" when it chooses any process).
func pickIn(sys *gsst.System, pick string, groups []int, first []int) string {
	var cs []string
	all := true
	for g, G := range sys.Groups {
		if !slices.Contains(groups, g) {
			all = all && G.Size == 0
			continue
		}
		lo, hi := first[g]+1, first[g]+G.Size
		switch {
		case G.Size == 0:
		case lo == hi:
			cs = append(cs, fmt.Sprintf("%s = %d", pick, lo))
		default:
			cs = append(cs, fmt.Sprintf("%s >= %d & %s <= %d", pick, lo, pick, hi))
		}
	}
	switch {
	case all:
		return ""
	case len(cs) == 0:
		return "FALSE"
	case len(cs) == 1:
		return cs[0]
	}
	return "(" + strings.Join(cs, " | ") + ")"
}

// joinMoves are the case lines of process i (of group g) for the parts
// of rendezvous it may take: the j-th pick input chooses the process of
// part j.
func joinMoves(sys *gsst.System, i, g int, trVar string, picks, rvVal, st []string) []string {
	var out []string
	for r := range sys.Rendezvous {
		for j, pt := range sys.Rendezvous[r].Parts {
			if emit.Eligible(pt.Groups, g) {
				out = append(out, fmt.Sprintf("%s = %d & %s = %s : %s;", picks[j], i+1, trVar, rvVal[r], st[pt.To]))
			}
		}
	}
	return out
}

// transferMoves are the case lines of process i (of group g, variable
// self) for the broadcasts that carry it along: when another process
// takes a broadcast transition, i moves from a transfer's source to its
// target.
func transferMoves(sys *gsst.System, i, g int, pick, trVar string, tval, st []string, self string) []string {
	var out []string
	for k := range sys.Transitions {
		for _, tf := range sys.Transitions[k].Broadcast {
			if emit.Eligible(tf.Groups, g) {
				out = append(out, fmt.Sprintf("%s = %s & %s != %d & %s = %s : %s;", trVar, tval[k], pick, i+1, self, st[tf.From], st[tf.To]))
			}
		}
	}
	return out
}

// sharedMoves are the case lines of shared variable j: one per block of
// a transition, and per rendezvous, whose update assigns it.
func sharedMoves(sys *gsst.System, sv *sharedVars, j int, name namefn, pick, trVar string, tval []string, guard [][]string, first []int, rvVal, rvGuard []string) ([]string, error) {
	v := sys.SharedVar(j)
	var out []string
	line := func(cond []string, as []gsst.Assign) error {
		for _, a := range as {
			if a.Var != v {
				continue
			}
			val, err := sv.value(j, a.Value, name)
			if err != nil {
				return err
			}
			out = append(out, strings.Join(cond, " & ")+" : "+val+";")
		}
		return nil
	}
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for b := range t.Blocks {
			cond := []string{trVar + " = " + tval[i]}
			if in := pickIn(sys, pick, t.Blocks[b].Groups, first); in != "" {
				cond = append(cond, in)
			}
			if guard[i][b] != "" {
				cond = append(cond, guard[i][b])
			}
			if err := line(cond, t.Blocks[b].Update.Assign); err != nil {
				return nil, err
			}
		}
	}
	for r := range sys.Rendezvous {
		cond := []string{trVar + " = " + rvVal[r]}
		if rvGuard[r] != "" {
			cond = append(cond, rvGuard[r])
		}
		if err := line(cond, sys.Rendezvous[r].Update.Assign); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rvChoice is the condition that the pick inputs choose distinct
// processes for the parts of rendezvous r, each in its part's source
// state and of its groups, and that the guard holds.
func rvChoice(sys *gsst.System, r int, procs []proc, picks, st []string, guard string) string {
	parts := sys.Rendezvous[r].Parts
	var cs []string
	for j, pt := range parts {
		var ws []string
		for i, pr := range procs {
			if emit.Eligible(pt.Groups, pr.group) {
				ws = append(ws, fmt.Sprintf("%s = %d & %s = %s", picks[j], i+1, pr.name, st[pt.From]))
			}
		}
		if len(ws) == 0 {
			return "FALSE"
		}
		cs = append(cs, "("+wrapJoin(ws, " | ", "          ")+")")
	}
	for j := range parts {
		for k := j + 1; k < len(parts); k++ {
			cs = append(cs, picks[j]+" != "+picks[k])
		}
	}
	if guard != "" {
		cs = append(cs, guard)
	}
	return strings.Join(cs, "\n        & ")
}

// writeSharedComments states the shared variables, the parameters of the
// instance and the bound of the unbounded variables in the header.
func writeSharedComments(p func(string, ...any), sys *gsst.System, sv *sharedVars, bound int, check string) {
	if len(sys.Params) > 0 {
		p("-- Parameters of this instance (folded into constants): %s\n", comment(emit.ParamsText(sys)))
	}
	if len(sys.Shared) == 0 {
		return
	}
	p("-- Shared variables (GSST name: type, NuSMV variable; formulas read a\n")
	p("-- boolean as 0/1 and an enumeration as the index of its value):\n")
	for j := range sys.Shared {
		v := &sys.Shared[j]
		p("--   %-12s %s, %s\n", comment(v.Name), comment(v.TypeText()), sv.name[j])
	}
	p("-- Updates are simultaneous (right-hand sides read the values before the\n")
	p("-- step), and a step whose update would leave a variable's domain is not\n")
	p("-- enabled.\n")
	if !emit.HasUnbounded(sys) {
		return
	}
	p("-- BOUND. NuSMV needs finite ranges: each unbounded variable stops at a bound\n")
	p("-- (--bound, or by default %s):\n", emit.BoundRule)
	for j := range sys.Shared {
		if v := &sys.Shared[j]; v.Unbounded {
			p("--   %s\n", comment(emit.BoundText(v, sv.hi[j], bound)))
		}
	}
	p("-- and a step that would go beyond it is left out. INVARSPEC %s checks\n", check)
	p("-- that no reachable configuration has such a step: EVERY VERDICT OF THIS\n")
	p("-- MODEL IS MEANINGFUL ONLY WHEN %s IS TRUE (else raise --bound).\n", check)
}

// writeRendezvousComments lists the values of tr that name rendezvous
// and the pick inputs of their parts.
func writeRendezvousComments(p func(string, ...any), sys *gsst.System, rvVal, picks []string) {
	if len(sys.Rendezvous) == 0 {
		return
	}
	p("-- Rendezvous (value of tr: parts; the part i moves the process chosen by\n")
	p("-- %s, distinct processes):\n", strings.Join(picks, ", "))
	for r := range sys.Rendezvous {
		p("--   %-12s %s\n", rvVal[r], comment(emit.PartsText(sys, r)))
	}
}
