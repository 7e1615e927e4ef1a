package gsst

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// Steps on configurations of counters: how many processes of each group
// are in each local state, and the values of the shared variables. This
// is the meaning the formulas of enabled.go describe, evaluated; the
// engines, the lifting of traces to processes and the check of
// certification witnesses take it from here.

// Config is a configuration read on counters: Counts[g][s] processes of
// group g in local state s, the value of every shared variable, and, in
// a family, the value of every parameter (nil in an instance, whose
// parameters are folded into its formulas).
type Config struct {
	Counts [][]int
	Shared []int
	Params []int
}

// Clone returns a copy of c that shares nothing with it.
func (c Config) Clone() Config {
	out := Config{Counts: make([][]int, len(c.Counts)), Shared: slices.Clone(c.Shared), Params: slices.Clone(c.Params)}
	for g, row := range c.Counts {
		out.Counts[g] = slices.Clone(row)
	}
	return out
}

// Totals returns the total counter of every local state of c.
func (c Config) Totals(states int) []int {
	out := make([]int, states)
	for _, row := range c.Counts {
		for s, k := range row {
			out[s] += k
		}
	}
	return out
}

// InitConfig returns the initial configuration of s (its smallest
// instance's, for ranges).
func (s *Spec) InitConfig() Config {
	c := Config{Counts: make([][]int, len(s.Groups)), Shared: s.InitShared()}
	for g := range s.Groups {
		c.Counts[g] = slices.Clone(s.Init[g])
	}
	return c
}

// ValuationOf returns the assignment of the system's variables in c:
// counters, shared variables, parameters (from c.Params in a family),
// group sizes and n.
func (s *Spec) ValuationOf(c Config) func(presburger.Var) int64 {
	val := s.Valuation(c.Counts, c.Shared)
	if c.Params == nil {
		return val
	}
	return func(v presburger.Var) int64 {
		if k, ok := s.ParamOf(v); ok {
			return int64(c.Params[k])
		}
		return val(v)
	}
}

// LimitError says that a value a step computes does not fit in the
// integers vsym represents: an unbounded shared variable went past
// MaxValue. It is a limit of vsym, not an answer about the system.
type LimitError struct {
	Var   string // the shared variable
	Value *big.Int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("shared variable %s would take the value %s, beyond the limit of ±%d on the values vsym represents exactly", e.Var, e.Value, MaxValue)
}

// Is makes a LimitError a limit (errkind.Limit) wherever it surfaces.
func (e *LimitError) Is(target error) bool { return target == errkind.Limit }

// MaxValue bounds the magnitude of every value a shared variable takes:
// the bounds of its type and its initial value (the rules check them),
// and every value it takes in a run. A bounded variable keeps to its
// domain; an unbounded one (Lo..) that would pass MaxValue stops the
// analysis with a LimitError (here, in counterabs.StepInto and in the
// engines), never a wrapped number.
const MaxValue = MaxConstant

// Updated returns the shared values after u from the values shared,
// reading the variables with val (the configuration before the step): ok
// is false when some value leaves its variable's domain (the step is not
// enabled). Values are computed exactly; one beyond MaxValue in an
// unbounded domain is a *LimitError.
func (s *Spec) Updated(u *Update, val func(presburger.Var) int64, shared []int) (next []int, ok bool, err error) {
	next = slices.Clone(shared)
	for _, a := range u.Assign {
		j, isShared := s.SharedOf(a.Var)
		if !isShared {
			return nil, false, fmt.Errorf("update assigns %s, which is not a shared variable", s.VarName(a.Var))
		}
		v := &s.Shared[j]
		x, fits := a.Value.Value(val) // exact, whatever the partial sums
		if !fits {
			if a.Value.Sign(val) < 0 || !v.Unbounded {
				return nil, false, nil // far outside the domain
			}
			return nil, false, &LimitError{Var: v.Name, Value: a.Value.BigValue(val)}
		}
		switch {
		case x < int64(v.Lo) || !v.Unbounded && x > int64(v.Hi):
			return nil, false, nil
		case x > MaxValue:
			return nil, false, &LimitError{Var: v.Name, Value: big.NewInt(x)}
		}
		next[j] = int(x)
	}
	return next, true, nil
}

// Choices calls yield with every way st can be taken in c: the group of
// the process taking each part (groups[i] for part i), in increasing
// order of the groups of the first part, then the second, and so on, and
// the shared values after the step. Only choices that find distinct
// processes are given; none when the guard does not hold or the update
// leaves a domain. The slice yield gets is reused: copy it to keep it.
// An update beyond MaxValue is a *LimitError.
func (s *Spec) Choices(st *Step, c Config, yield func(groups, shared []int) bool) error {
	val := s.ValuationOf(c)
	if !presburger.Eval(st.Guard, val) {
		return nil
	}
	shared, ok, err := s.Updated(&st.Update, val, c.Shared)
	if err != nil || !ok {
		return err
	}
	groups := make([]int, len(st.Parts))
	used := map[[2]int]int{} // (group, state) -> processes taken by earlier parts
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(st.Parts) {
			return yield(groups, shared)
		}
		p := &st.Parts[i]
		for g := range s.Groups {
			key := [2]int{g, p.From}
			if !p.Allows(g) || c.Counts[g][p.From]-used[key] < 1 {
				continue
			}
			used[key]++
			groups[i] = g
			more := rec(i + 1)
			used[key]--
			if !more {
				return false
			}
		}
		return true
	}
	rec(0)
	return nil
}

// Enabled reports whether st can be taken in c.
func (s *Spec) Enabled(st *Step, c Config) (bool, error) {
	found := false
	err := s.Choices(st, c, func([]int, []int) bool { found = true; return false })
	return found, err
}

// After returns the configuration after st is taken in c by processes of
// groups (one per part, a choice of Choices), with the shared values
// shared after it: each mover goes to its part's target, every other
// process in a transfer's source (of the transfer's groups) to the
// transfer's target, all read in c.
func (s *Spec) After(st *Step, c Config, groups, shared []int) Config {
	out := Config{Counts: make([][]int, len(c.Counts)), Shared: slices.Clone(shared), Params: c.Params}
	for g, row := range c.Counts {
		out.Counts[g] = slices.Clone(row)
	}
	for _, x := range st.Transfers {
		for g := range s.Groups {
			if !x.Allows(g) {
				continue
			}
			k := c.Counts[g][x.From]
			for i, p := range st.Parts {
				if p.From == x.From && groups[i] == g {
					k-- // a mover is not transferred
				}
			}
			out.Counts[g][x.From] -= k
			out.Counts[g][x.To] += k
		}
	}
	for i, p := range st.Parts {
		out.Counts[groups[i]][p.From]--
		out.Counts[groups[i]][p.To]++
	}
	return out
}

// Successor is one successor of a configuration: step Steps()[Step]
// taken by processes of Groups, reaching Next.
type Successor struct {
	Step   int
	Groups []int
	Next   Config
}

// Successors returns every successor of c, by step and then by Choices'
// order.
func (s *Spec) Successors(c Config) ([]Successor, error) {
	var out []Successor
	steps := s.Steps()
	for i := range steps {
		st := &steps[i]
		err := s.Choices(st, c, func(groups, shared []int) bool {
			out = append(out, Successor{Step: i, Groups: slices.Clone(groups), Next: s.After(st, c, groups, shared)})
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
