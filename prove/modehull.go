package prove

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/presburger"
)

// Mode equalities: the linear equalities that the reachable states of
// the small instances satisfy, apart for each value of the shared
// variables of a few values (the modes).
//
// A protocol with a boolean shared variable often keeps a different
// count in each of its values: a sense-reversing barrier counts the
// processes that arrived in one phase, "cnt = #W1" while sense is
// false and "cnt = #W0" while it is true. Neither equation holds in
// every state, and no step keeps either one (the last arrival resets
// cnt): the linear invariants of the steps (linear.go) do not see them,
// and no other kind of candidate is an implication from a mode. The
// sample of reachable states (sample.go) shows them: for each mode, the
// affine hull of its states, over the other state variables and the
// parameters, is cut out by equalities, each "mode -> a.x = b" a
// candidate. Candidates are guesses like the others: Houdini's filter
// keeps those that are inductive together, and every proof that uses
// them is re-checked; a hull taken from too few states only costs the
// filter's queries.

// Bounds of the mode equalities: modes of at most maxModes values in
// all (two booleans, or one variable of four values), hulls over at most
// maxHullVars variables, a mode with at least minModeStates states, and
// at most maxModeLemmas candidates.
const (
	maxModes      = 8
	maxHullVars   = 80
	minModeStates = 3
	maxModeLemmas = 48
)

// modeEqualities returns the mode equalities of m read from sample, the
// states of ts; none when the sample is empty or m has too many
// variables. Without a shared variable of a few values, the one mode is
// every state.
func modeEqualities(m *counterabs.ParamModel, ts presburger.TransitionSystem, sample reachSample) []Lemma {
	if len(sample.states) < minModeStates {
		return nil
	}
	dom := domainBounds(ts.Domain)
	empty := emptyCounters(m)
	// The mode variables, and the variables of the hull.
	var modes []presburger.Var
	var coords []presburger.Var
	product := 1
	for i := range m.NumState() {
		v := m.StateVar(i)
		if !sample.known[v] || empty[i] {
			continue
		}
		if b, ok := dom[v]; i >= len(m.Counters) && ok && b.Finite() && b.Hi > b.Lo && b.Hi-b.Lo < maxModes && product*int(b.Hi-b.Lo+1) <= maxModes {
			product *= int(b.Hi - b.Lo + 1)
			modes = append(modes, v)
			continue
		}
		coords = append(coords, v)
	}
	for _, v := range ts.Params {
		if sample.known[v] {
			coords = append(coords, v)
		}
	}
	if len(coords) == 0 || len(coords) > maxHullVars {
		return nil
	}
	// The states of each mode, by the mode variables' values.
	byMode := map[string][][]int64{}
	var keys []string
	for _, s := range sample.states {
		var key strings.Builder
		for _, v := range modes {
			key.WriteString(strconv.FormatInt(s[v], 10))
			key.WriteByte(',')
		}
		k := key.String()
		if _, ok := byMode[k]; !ok {
			keys = append(keys, k)
		}
		byMode[k] = append(byMode[k], s)
	}
	var out []Lemma
	seen := map[string]bool{}
	for _, k := range keys {
		states := byMode[k]
		if len(states) < minModeStates {
			continue
		}
		var mode []presburger.Formula
		for _, v := range modes {
			mode = append(mode, presburger.Compare(presburger.VarTerm(v), presburger.Eq, presburger.ConstTerm(states[0][v])))
		}
		for _, eq := range hullEqualities(coords, states) {
			f := eq
			text := FormatInvariant(eq, m.VarName, m.TypedAtom)
			if len(mode) > 0 {
				off := presburger.Negation(presburger.Conj(mode...))
				f = presburger.Disj(off, eq)
				// Written "mode off | a = b", the equality balanced as
				// the invariants print theirs ("cnt = #W1").
				text = presburger.FormatAtoms(off, m.VarName, m.TypedAtom) + " | " + text
			}
			key := presburger.Format(f, m.VarName)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Lemma{Kind: "sample equality", Formula: f, Text: text})
			if len(out) == maxModeLemmas {
				return out
			}
		}
	}
	return out
}

// hullEqualities returns equalities a.x = b over coords that cut out
// the affine hull of states (valuations indexed by variable): a basis
// of the vectors orthogonal to every difference of two states, each
// scaled to the least integers (integerVector), b its value at the
// first state. An equality whose numbers leave inLimit is left out.
func hullEqualities(coords []presburger.Var, states [][]int64) []presburger.Formula {
	first := states[0]
	var rows []sparseRow
	for _, s := range states[1:] {
		row := sparseRow{}
		for j, v := range coords {
			if d := s[v] - first[v]; d != 0 {
				row[j] = new(big.Rat).SetInt64(d)
			}
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	pivots := eliminateRows(rows, func(a, b int) bool { return a < b })
	var out []presburger.Formula
	for f := range coords {
		if _, isPivot := pivots[f]; isPivot {
			continue
		}
		coef, ok := integerVector(kernelVector(pivots, f), len(coords))
		if !ok {
			continue
		}
		var lhs presburger.Term
		rhs := new(big.Int)
		for j, c := range coef {
			if c != 0 {
				lhs = lhs.Add(presburger.Term{Monos: []presburger.Mono{{Var: coords[j], Coef: c}}})
				rhs.Add(rhs, new(big.Int).Mul(big.NewInt(c), big.NewInt(first[coords[j]])))
			}
		}
		if !rhs.IsInt64() || !inLimit(rhs.Int64()) {
			continue
		}
		out = append(out, presburger.Compare(lhs, presburger.Eq, presburger.ConstTerm(rhs.Int64())))
	}
	return out
}
