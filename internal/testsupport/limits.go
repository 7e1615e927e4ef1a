package testsupport

import (
	"fmt"
	"math/big"
	"math/rand"
	"slices"
	"strings"
)

// Systems at the limits of vsym's integers (issue 27): shared variables
// whose domains reach ±1e9, parameters at 1e9, guards and updates whose
// coefficients are near 1e9 and that have many monomials, so that their
// values leave int64, and updates that take unbounded variables past
// the limit on a shared variable's value. A LimitCase is the system as
// this file draws it, before any text; LimitCase.Spec writes it as a
// GSST, and LimitCase.Explore is its oracle: the concrete semantics
// evaluated in math/big, reading the case itself (not the parsed
// system, not gsst's folding of the parameters, not presburger's
// arithmetic), so that every path of vsym can be compared with it.

// The limits the oracle applies, written out rather than read from gsst:
// a folded constant or coefficient beyond LimitConstant is refused, a
// value of an unbounded shared variable beyond LimitValue stops the
// analysis.
const (
	LimitConstant = 1_000_000_000
	LimitValue    = 1_000_000_000
)

// LimitVar is an integer shared variable: Lo..Hi, or Lo.. when
// Unbounded.
type LimitVar struct {
	Name         string
	Lo, Hi, Init int64
	Unbounded    bool
}

// LimitParam is a parameter and its value in the instance.
type LimitParam struct {
	Name  string
	Value int64
}

// LimitTerm is sum Coef[i]*Names[i] + Const. A name is a shared
// variable, a parameter or a counter "#S"; each occurs once.
type LimitTerm struct {
	Names []string
	Coefs []int64
	Const int64
}

// LimitAtom is "Term Op K", Op one of = != < <= > >=.
type LimitAtom struct {
	Term LimitTerm // without constant
	Op   string
	K    int64
}

// LimitAssign is "Var := Value".
type LimitAssign struct {
	Var   string
	Value LimitTerm
}

// LimitTrans is a transition of the one group: From -> To when every
// atom of Guard holds, with Update.
type LimitTrans struct {
	From, To int
	Guard    []LimitAtom
	Update   []LimitAssign
}

// LimitProp is a safety property: "AG #S = 0" (State >= 0) or
// "AG x <= K".
type LimitProp struct {
	Name  string
	State int // -1 for a bound on Var
	Var   string
	K     int64
}

// Text is the property in the language.
func (p *LimitProp) Text(states []string) string {
	if p.State >= 0 {
		return "AG #" + states[p.State] + " = 0"
	}
	return fmt.Sprintf("AG %s <= %d", p.Var, p.K)
}

// LimitCase is one system: Procs processes of one group p in States,
// all starting in States[0].
type LimitCase struct {
	States []string
	Procs  int
	Shared []LimitVar
	Params []LimitParam
	Trans  []LimitTrans
	Props  []LimitProp
}

// LimitConfig says what a LimitCase draws: Span bounds the width of a
// bounded domain (0: any), Small draws values, constants and parameters
// within ±20 (the coefficients stay near 1e9, so that sums straddle the
// 32-bit integers of NuSMV and Spin on models small enough for them),
// MaxVars bounds the shared variables and parameters, Params says
// whether parameters are drawn.
type LimitConfig struct {
	Span    int64
	Small   bool
	MaxVars int
	Params  bool
}

// RandomLimitCase draws a case as cfg says.
func RandomLimitCase(r *rand.Rand, cfg LimitConfig) *LimitCase {
	const L = LimitConstant
	near := func() int64 {
		if cfg.Small {
			return int64(r.Intn(41) - 20)
		}
		return nearLimit(r)
	}
	c := &LimitCase{States: []string{"A", "B", "C"}, Procs: 1 + r.Intn(2)}
	nvars := 1 + r.Intn(cfg.MaxVars)
	for j := range nvars {
		v := LimitVar{Name: fmt.Sprintf("x%d", j)}
		switch {
		case cfg.Span > 0:
			v.Lo = min(near(), L-cfg.Span)
			v.Hi = v.Lo + r.Int63n(cfg.Span+1)
			if r.Intn(4) == 0 {
				v.Unbounded = true
			}
		case r.Intn(3) == 0:
			v.Unbounded = true
			v.Lo = near()
		default:
			a, b := near(), near()
			v.Lo, v.Hi = min(a, b), max(a, b)
		}
		switch r.Intn(3) {
		case 0:
			v.Init = v.Lo
		case 1:
			v.Init = v.Hi
			if v.Unbounded {
				v.Init = max(v.Lo, near())
			}
		default:
			v.Init = min(v.Lo+int64(r.Intn(3)), L)
			if !v.Unbounded && v.Init > v.Hi {
				v.Init = v.Hi
			}
		}
		c.Shared = append(c.Shared, v)
	}
	if cfg.Params && r.Intn(2) == 0 {
		for k := range 1 + r.Intn(cfg.MaxVars) {
			val := int64(r.Intn(6))
			if r.Intn(5) < 2 {
				if val = near(); val < 0 {
					val = -val
				}
			}
			c.Params = append(c.Params, LimitParam{Name: fmt.Sprintf("a%d", k), Value: val})
		}
	}
	coef := func() int64 {
		if r.Intn(3) == 0 {
			return int64(r.Intn(5) + 1)
		}
		k := nearLimit(r)
		if k == 0 {
			k = 1
		}
		return k
	}
	var shared, params, counters []string
	for _, v := range c.Shared {
		shared = append(shared, v.Name)
	}
	for _, p := range c.Params {
		params = append(params, p.Name)
	}
	for _, s := range c.States {
		counters = append(counters, "#"+s)
	}
	// term draws a sum over some of names, each at most once.
	term := func(names []string, most int) LimitTerm {
		var t LimitTerm
		for _, i := range r.Perm(len(names)) {
			if len(t.Names) == most {
				break
			}
			if r.Intn(3) == 0 && len(t.Names) > 0 {
				continue
			}
			t.Names = append(t.Names, names[i])
			k := coef()
			if _, isParam := c.param(names[i]); isParam && r.Intn(5) > 0 && len(names) > len(params) {
				// Mostly small next to other variables: a parameter at
				// 1e9 times a coefficient near 1e9 folds to a constant
				// the instance refuses, which the cases need now and
				// then, not always.
				k = int64(r.Intn(7) - 3)
				if k == 0 {
					k = 1
				}
			}
			t.Coefs = append(t.Coefs, k)
		}
		return t
	}
	// tame returns k, or mostly a small constant when t reads a
	// parameter and other variables: a constant at the edge plus a
	// parameter's share folds beyond LimitConstant, and the instance is
	// refused; the cases need that now and then, not always.
	tame := func(t LimitTerm, k int64) int64 {
		reads := 0
		for _, n := range t.Names {
			if _, isParam := c.param(n); isParam {
				reads++
			}
		}
		if reads > 0 && reads < len(t.Names) && r.Intn(3) > 0 {
			return int64(r.Intn(21) - 10)
		}
		return k
	}
	ops := []string{"=", "!=", "<", "<=", ">", ">="}
	pairs := r.Perm(6)[:2+r.Intn(3)]
	for _, pr := range pairs {
		from := pr / 2
		to := (from + 1 + pr%2) % 3
		t := LimitTrans{From: from, To: to}
		for range r.Intn(3) {
			var names []string
			switch r.Intn(4) {
			case 0:
				names = params // parameters alone: decided when folded
			case 1:
				names = append(append([]string(nil), counters...), shared...)
			default:
				names = append(append(append([]string(nil), shared...), params...), counters...)
			}
			if len(names) == 0 {
				continue
			}
			a := LimitAtom{Term: term(names, len(names)), Op: ops[r.Intn(len(ops))], K: near()}
			a.K = tame(a.Term, a.K)
			t.Guard = append(t.Guard, a)
		}
		for _, j := range r.Perm(len(c.Shared))[:r.Intn(min(len(c.Shared), 2)+1)] {
			val := term(append(append([]string(nil), shared...), params...), 4)
			// A variable that adds a small step to itself would walk
			// through its whole domain: read it with a coefficient of
			// at least 2 in magnitude, or not at all.
			for i, n := range val.Names {
				if n == c.Shared[j].Name && val.Coefs[i] >= -1 && val.Coefs[i] <= 1 {
					val.Coefs[i] = 2
				}
			}
			val.Const = tame(val, near())
			t.Update = append(t.Update, LimitAssign{Var: c.Shared[j].Name, Value: val})
		}
		c.Trans = append(c.Trans, t)
	}
	// An unbounded variable that grows: doubled, or raised by half the
	// limit, on some transition, so that runs pass LimitValue.
	for j, v := range c.Shared {
		if !v.Unbounded || r.Intn(2) == 0 {
			continue
		}
		t := &c.Trans[r.Intn(len(c.Trans))]
		grow := LimitAssign{Var: v.Name, Value: LimitTerm{Names: []string{v.Name}, Coefs: []int64{2}, Const: int64(1 + r.Intn(3))}}
		if r.Intn(2) == 0 {
			grow.Value = LimitTerm{Names: []string{v.Name}, Coefs: []int64{1}, Const: L/2 + int64(r.Intn(3))}
		}
		t.Update = append(slices.DeleteFunc(t.Update, func(a LimitAssign) bool { return a.Var == c.Shared[j].Name }), grow)
	}
	for s := range c.States {
		c.Props = append(c.Props, LimitProp{Name: "never_" + c.States[s], State: s})
	}
	for _, v := range c.Shared {
		k := v.Init
		if r.Intn(2) == 0 {
			k = near()
		}
		c.Props = append(c.Props, LimitProp{Name: "below_" + v.Name, State: -1, Var: v.Name, K: k})
	}
	return c
}

// ParamsFlag is the value of --params for the case ("" without
// parameters).
func (c *LimitCase) ParamsFlag() string {
	var parts []string
	for _, p := range c.Params {
		parts = append(parts, fmt.Sprintf("%s=%d", p.Name, p.Value))
	}
	return strings.Join(parts, ",")
}

// Spec writes the case as a GSST. With folded set, every parameter is
// replaced by its value and the constants are folded here, exactly; ok
// is then false when a folded constant or coefficient is beyond
// LimitConstant (the case has no such text). Without folded, the
// parameters are declared and read by name (give their values with
// ParamsFlag).
func (c *LimitCase) Spec(name string, folded bool) (text string, ok bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\n", name)
	if len(c.Params) > 0 && !folded {
		var ps []string
		for _, p := range c.Params {
			ps = append(ps, p.Name)
		}
		fmt.Fprintf(&b, "params: [%s]\n", strings.Join(ps, ", "))
	}
	b.WriteString("shared:\n")
	for _, v := range c.Shared {
		typ := fmt.Sprintf("%d..%d", v.Lo, v.Hi)
		if v.Unbounded {
			typ = fmt.Sprintf("%d..", v.Lo)
		}
		fmt.Fprintf(&b, "  %s: {type: %q, init: %d}\n", v.Name, typ, v.Init)
	}
	fmt.Fprintf(&b, "states: [%s]\ngroups:\n  p: %d\ninit: %s\ntransitions:\n", strings.Join(c.States, ", "), c.Procs, c.States[0])
	ok = true
	for _, t := range c.Trans {
		fmt.Fprintf(&b, "  - from: %s\n    to: %s\n", c.States[t.From], c.States[t.To])
		var atoms []string
		for _, a := range t.Guard {
			text, fits := c.atomText(a, folded)
			ok = ok && fits
			atoms = append(atoms, text)
		}
		if len(atoms) > 0 {
			fmt.Fprintf(&b, "    guard: %q\n", strings.Join(atoms, " & "))
		}
		var asg []string
		for _, a := range t.Update {
			text, fits := c.termText(a.Value, folded)
			ok = ok && fits
			asg = append(asg, a.Var+" := "+text)
		}
		if len(asg) > 0 {
			fmt.Fprintf(&b, "    update: %q\n", strings.Join(asg, "; "))
		}
	}
	b.WriteString("properties:\n")
	for i := range c.Props {
		fmt.Fprintf(&b, "  %s: %q\n", c.Props[i].Name, c.Props[i].Text(c.States))
	}
	return b.String(), ok
}

// termText writes t, folding the parameters when folded; fits is false
// when a folded constant leaves LimitConstant.
func (c *LimitCase) termText(t LimitTerm, folded bool) (string, bool) {
	konst := big.NewInt(t.Const)
	var parts []string
	for i, n := range t.Names {
		if p, isParam := c.param(n); isParam && folded {
			konst.Add(konst, new(big.Int).Mul(big.NewInt(t.Coefs[i]), big.NewInt(p)))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d*%s", t.Coefs[i], n))
	}
	fits := konst.CmpAbs(big.NewInt(LimitConstant)) <= 0
	if konst.Sign() != 0 || len(parts) == 0 {
		parts = append(parts, konst.String())
	}
	return strings.ReplaceAll(strings.Join(parts, " + "), "+ -", "- "), fits
}

// atomText writes a, folding the parameters when folded (an atom left
// without variables is written as true or false, as the exact fold
// decides it).
func (c *LimitCase) atomText(a LimitAtom, folded bool) (string, bool) {
	if folded && c.onlyParams(a.Term) {
		v := c.value(a.Term, nil, nil)
		if holds(a.Op, v.Cmp(big.NewInt(a.K))) {
			return "true", true
		}
		return "false", true
	}
	t := a.Term
	t.Const = -a.K
	text, fits := c.termText(t, folded)
	return text + " " + a.Op + " 0", fits
}

func (c *LimitCase) param(name string) (int64, bool) {
	for _, p := range c.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return 0, false
}

func (c *LimitCase) onlyParams(t LimitTerm) bool {
	for _, n := range t.Names {
		if _, ok := c.param(n); !ok {
			return false
		}
	}
	return true
}

// value is t's value in math/big, reading parameters from the case,
// counters from counts (by state index) and shared variables from
// shared (by index).
func (c *LimitCase) value(t LimitTerm, counts []int, shared []*big.Int) *big.Int {
	out := big.NewInt(t.Const)
	for i, n := range t.Names {
		var x *big.Int
		if p, ok := c.param(n); ok {
			x = big.NewInt(p)
		} else if strings.HasPrefix(n, "#") {
			for s, st := range c.States {
				if "#"+st == n {
					x = big.NewInt(int64(counts[s]))
				}
			}
		} else {
			for j, v := range c.Shared {
				if v.Name == n {
					x = shared[j]
				}
			}
		}
		out.Add(out, new(big.Int).Mul(big.NewInt(t.Coefs[i]), x))
	}
	return out
}

// holds reports whether "a op b" holds, given cmp = a.Cmp(b).
func holds(op string, cmp int) bool {
	switch op {
	case "=":
		return cmp == 0
	case "!=":
		return cmp != 0
	case "<":
		return cmp < 0
	case "<=":
		return cmp <= 0
	case ">":
		return cmp > 0
	}
	return cmp >= 0
}

// LimitOutcome is what the oracle finds.
type LimitOutcome struct {
	// Refused: the instance folds a parameter value into a constant or
	// coefficient beyond LimitConstant (only with parameters).
	Refused bool
	// Limit: a reachable step takes an unbounded variable beyond the
	// limit Explore applies (LimitValue for vsym's engines; an export's
	// bound for the models of NuSMV and Spin).
	Limit bool
	// Complete: every reachable state was visited (false when the
	// state cap stopped the search).
	Complete bool
	// States are the reachable states of the total-counter model: the
	// number of processes in each local state and the shared values.
	States []LimitState
	// Holds says, per property, whether it holds in every visited state.
	Holds    map[string]bool
	Deadlock bool // some visited state has no enabled step
}

// LimitState is a state of the total-counter model.
type LimitState struct {
	Counts []int
	Shared []*big.Int
	// Enabled[i] says whether transition i can be taken here.
	Enabled []bool
}

// Key identifies a state.
func (s LimitState) Key() string { return fmt.Sprint(s.Counts, s.Shared) }

// Explore runs the oracle: breadth first over the configurations (one
// group, so the counts of each local state and the shared values are a
// configuration up to the order of the processes), at most maxStates of
// them. With limit > 0 a step that takes an unbounded variable past it
// stops the search with Limit. Refused is decided first, from the
// folded constants.
func (c *LimitCase) Explore(limit int64, maxStates int) LimitOutcome {
	out := LimitOutcome{Holds: map[string]bool{}}
	if len(c.Params) > 0 {
		if _, ok := c.Spec("x", true); !ok {
			out.Refused = true
			return out
		}
	}
	for i := range c.Props {
		out.Holds[c.Props[i].Name] = true
	}
	init := LimitState{Counts: make([]int, len(c.States))}
	init.Counts[0] = c.Procs
	for _, v := range c.Shared {
		init.Shared = append(init.Shared, big.NewInt(v.Init))
	}
	seen := map[string]bool{init.Key(): true}
	queue := []LimitState{init}
	for k := 0; k < len(queue); k++ {
		if k == maxStates {
			return out
		}
		st := &queue[k]
		c.check(st, &out)
		st.Enabled = make([]bool, len(c.Trans))
		any := false
		for i := range c.Trans {
			next, ok, beyond := c.step(&c.Trans[i], *st, limit)
			if beyond && limit > 0 {
				out.Limit = true
				return out
			}
			if !ok {
				continue
			}
			st.Enabled[i], any = true, true
			if key := next.Key(); !seen[key] {
				seen[key] = true
				queue = append(queue, next)
			}
		}
		out.Deadlock = out.Deadlock || !any
	}
	out.States, out.Complete = queue, true
	return out
}

// check records the properties that fail in st.
func (c *LimitCase) check(st *LimitState, out *LimitOutcome) {
	for i := range c.Props {
		p := &c.Props[i]
		if p.State >= 0 {
			if st.Counts[p.State] != 0 {
				out.Holds[p.Name] = false
			}
			continue
		}
		for j, v := range c.Shared {
			if v.Name == p.Var && st.Shared[j].Cmp(big.NewInt(p.K)) > 0 {
				out.Holds[p.Name] = false
			}
		}
	}
}

// step takes t from st: ok when a process is in t.From, the guard holds
// and every assigned value lies in its domain; beyond when some value of
// an unbounded variable passes limit (the step is then taken, ok, for
// the search without a limit).
func (c *LimitCase) step(t *LimitTrans, st LimitState, limit int64) (next LimitState, ok, beyond bool) {
	if st.Counts[t.From] == 0 {
		return next, false, false
	}
	for _, a := range t.Guard {
		if !holds(a.Op, c.value(a.Term, st.Counts, st.Shared).Cmp(big.NewInt(a.K))) {
			return next, false, false
		}
	}
	next = LimitState{Counts: append([]int(nil), st.Counts...), Shared: append([]*big.Int(nil), st.Shared...)}
	next.Counts[t.From]--
	next.Counts[t.To]++
	for _, a := range t.Update {
		x := c.value(a.Value, st.Counts, st.Shared)
		for j, v := range c.Shared {
			if v.Name != a.Var {
				continue
			}
			if x.Cmp(big.NewInt(v.Lo)) < 0 || !v.Unbounded && x.Cmp(big.NewInt(v.Hi)) > 0 {
				return LimitState{}, false, false
			}
			if v.Unbounded && limit > 0 && x.Cmp(big.NewInt(limit)) > 0 {
				beyond = true
			}
			next.Shared[j] = x
		}
	}
	return next, true, beyond
}

// nearLimit draws an integer within ±LimitConstant, often at or next to
// the edges, at half of them, or small.
func nearLimit(r *rand.Rand) int64 {
	const L = LimitConstant
	switch r.Intn(6) {
	case 0:
		return int64(r.Intn(5))
	case 1:
		return L - int64(r.Intn(3))
	case 2:
		return -L + int64(r.Intn(3))
	case 3:
		return r.Int63n(2*L+1) - L
	case 4:
		return L/2 + int64(r.Intn(3)) - 1
	}
	return int64(r.Intn(11) - 5)
}
