package testsupport

import (
	"fmt"
	"slices"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// ExtState is a state of UnreducedExt: the local state of every process
// and the value of every shared variable.
type ExtState struct {
	Conf   []int
	Shared []int
}

// ExtSpace is the state space of an instance with the constructs beyond
// the paper (shared variables, updates, broadcast, rendezvous, parameters
// fixed to their values), on individual processes: the reference the
// concrete exports are checked against.
type ExtSpace struct {
	*Graph
	Sys    *gsst.System
	Owner  []int
	States []ExtState
	// Beyond is set when some reachable state has an unbounded shared
	// variable above most (UnreducedExt): such states are not explored
	// further, and the graph is then not the system's.
	Beyond bool
}

// UnreducedExt explores sys from its initial configuration and shared
// values, following the language's semantics directly: a process of a
// block's group in the transition's source state moves when the block's
// guard holds and its update keeps every variable in its domain (values
// read before the step); at a broadcast every other process in a
// transfer's source (of its groups) moves to the transfer's target at the
// same step; a rendezvous moves distinct processes, one per part, when
// its guard holds. A state without a move stutters. A state in which an
// unbounded shared variable exceeds most is not explored (Beyond).
func UnreducedExt(sys *gsst.System, most int) *ExtSpace {
	owner, init := Processes(sys)
	sp := &ExtSpace{Graph: newGraph(), Sys: sys, Owner: owner}
	push := func(st ExtState) int {
		i, added := sp.add(fmt.Sprint(st.Conf, st.Shared))
		if added {
			sp.States = append(sp.States, st)
		}
		return i
	}
	push(ExtState{init, sys.InitShared()})
	for i := 0; i < len(sp.States); i++ {
		st := sp.States[i]
		beyond := false
		for j, x := range st.Shared {
			beyond = beyond || sys.Shared[j].Unbounded && x > most
		}
		if beyond {
			sp.Beyond = true
			sp.close(i, false)
			continue
		}
		val := extValuation(sys, owner, st)
		holds := func(f presburger.Formula) bool { return f == nil || presburger.Eval(f, val) }
		apply := func(u gsst.Update) ([]int, bool) {
			out := slices.Clone(st.Shared)
			for _, a := range u.Assign {
				j, _ := sys.SharedOf(a.Var)
				x := a.Value.Eval(val)
				if !sys.Shared[j].Contains(int(x)) {
					return nil, false
				}
				out[j] = int(x)
			}
			return out, true
		}
		for p, s := range st.Conf {
			for k := range sys.Transitions {
				t := &sys.Transitions[k]
				b := t.BlockOf(owner[p])
				if s != t.From || b == nil || !holds(b.Guard) {
					continue
				}
				sh, ok := apply(b.Update)
				if !ok {
					continue
				}
				conf := slices.Clone(st.Conf)
				conf[p] = t.To
				for q, sq := range st.Conf {
					for _, tf := range t.Broadcast {
						if q != p && sq == tf.From && (tf.Groups == nil || slices.Contains(tf.Groups, owner[q])) {
							conf[q] = tf.To
						}
					}
				}
				sp.Succ[i] = append(sp.Succ[i], push(ExtState{conf, sh}))
			}
		}
		for r := range sys.Rendezvous {
			rz := &sys.Rendezvous[r]
			if !holds(rz.Guard) {
				continue
			}
			sh, ok := apply(rz.Update)
			if !ok {
				continue
			}
			var pick func(j int, chosen []int)
			pick = func(j int, chosen []int) {
				if j == len(rz.Parts) {
					conf := slices.Clone(st.Conf)
					for x, p := range chosen {
						conf[p] = rz.Parts[x].To
					}
					sp.Succ[i] = append(sp.Succ[i], push(ExtState{conf, sh}))
					return
				}
				pt := rz.Parts[j]
				for p, s := range st.Conf {
					if s == pt.From && !slices.Contains(chosen, p) && (pt.Groups == nil || slices.Contains(pt.Groups, owner[p])) {
						pick(j+1, append(chosen, p))
					}
				}
			}
			pick(0, nil)
		}
		sp.close(i, false)
	}
	sp.value = func(i int, v presburger.Var) (int64, bool) {
		return extValuation(sys, owner, sp.States[i])(v), true
	}
	return sp
}

// extValuation evaluates the variables of sys in st: counters, shared
// variables and parameters (at their values). It panics on any other.
func extValuation(sys *gsst.System, owner []int, st ExtState) func(presburger.Var) int64 {
	y := counters(sys, owner, st.Conf)
	count := valuation(sys, y)
	return func(v presburger.Var) int64 {
		if j, ok := sys.SharedOf(v); ok {
			return int64(st.Shared[j])
		}
		if k, ok := sys.ParamOf(v); ok {
			return int64(sys.Params[k].Value)
		}
		x, ok := count(v)
		if !ok {
			panic(fmt.Sprintf("testsupport: variable %d is neither a counter, a shared variable nor a parameter", v))
		}
		return x
	}
}

// UnreducedAtDefaultBound is UnreducedExt with most the default bound of
// the exports for sys's unbounded shared variable (its initial value plus
// the number of processes; RandomExtInstance draws at most one), and
// what the instance uses beyond the paper: rendezvous, broadcast.
func UnreducedAtDefaultBound(sys *gsst.System) (sp *ExtSpace, rendezvous, broadcast bool) {
	most := -1
	for j := range sys.Shared {
		if v := &sys.Shared[j]; v.Unbounded {
			most = v.Init + sys.N()
		}
	}
	for k := range sys.Transitions {
		broadcast = broadcast || len(sys.Transitions[k].Broadcast) > 0
	}
	return UnreducedExt(sys, most), len(sys.Rendezvous) > 0, broadcast
}
