package nusmv

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The concrete model has no counter variables: a count #S is the number of
// processes whose variable holds S. Written as arithmetic (a sum of
// toint(p = S), or count(...)), every guard comparison makes NuSMV build
// the BDD of an adder over all processes, which dominated the check: on
// GR&W d=2, q=5, m=6 (10 processes) minutes against a fraction of a second
// (BENCHMARKS.md). A countCompiler writes each comparison of a linear term
// over counters with a constant in Boolean form instead.
//
// A term sum_v a_v*#v + c over total and group counters is, process by
// process, sum_p w_p(state of p) + c, where w_p(S) adds the coefficients
// of the counters that count p when it is in S (#S, and #S[g] for p's
// group g). Processes whose weight does not depend on their state add a
// constant. "sum_{p >= i} w_p >= k" over the remaining processes, in
// declaration order, is decided by a chain of DEFINEs, one per (i, k) that
// can occur:
//
//	n_C_ge2_p3 := case p_3 = C : n_C_ge1_p4; TRUE : n_C_ge2_p4; esac;
//
// with TRUE where k is at most the least value the rest can reach and
// FALSE where k exceeds the largest: an ordered decision diagram in the
// variable order NuSMV uses (declaration order), so NuSMV builds its BDD
// in linear time. The comparisons are expressed with >= alone: T > k is
// T >= k+1, T <= k is !(T >= k+1), T = k is T >= k & !(T >= k+1). The
// commonest case, "at least one" with weights 0 and 1 (#S >= 1, #S = 0),
// is one disjunction of p = S tests. A comparison whose diagram would
// exceed countNodeLimit nodes (large constants over many processes with
// mixed weights) is written as arithmetic over the counter DEFINEs
// instead: same meaning, only slower for NuSMV.
type countCompiler struct {
	sys   *gsst.System
	procs []proc
	st    []string // symbolic constants of the local states
	nm    *namer
	arith atomfn               // fallback: the comparison over the counter DEFINEs
	sets  map[string]*countSet // by weights
	terms map[string]*countSet // by the term's monomials: the same weights
	added [][2]int64           // nodes memoized for the comparison being compiled
	defs  []string             // DEFINE lines, in creation order
	notes []string             // header comment lines, one per set
	limit int                  // nodes per comparison (countNodeLimit)
}

// proc is one process of the concrete model.
type proc struct {
	name  string
	group int
	init  int
}

// countNodeLimit bounds the decision DEFINEs of one comparison; a
// variable so that a test can force the arithmetic fallback.
var countNodeLimit = 20_000

// maxWeight bounds the weight of a process in one term, so that no sum
// over at most MaxConcreteProcesses processes can overflow an int64.
const maxWeight = 1 << 40

// countSet is one weighted count sum_p w_p(state of p), shared by every
// comparison of the same term (up to its constant).
type countSet struct {
	name  string
	idx   []int     // the processes whose weight depends on their state
	w     [][]int64 // w[j][s]: weight of process idx[j] in state s
	shift int64     // the sum of the other processes' (constant) weights
	// lo[j], hi[j]: least and largest value of sum_{j' >= j} w[j'].
	lo, hi []int64
	bits   bool              // every weight is 0 or 1
	nodes  map[[2]int64]frag // (j, k) -> "sum_{j' >= j} >= k"
}

func newCountCompiler(sys *gsst.System, procs []proc, st []string, nm *namer, arith atomfn) *countCompiler {
	return &countCompiler{sys: sys, procs: procs, st: st, nm: nm, arith: arith, sets: map[string]*countSet{}, terms: map[string]*countSet{}, limit: countNodeLimit}
}

// atom compiles the comparison c (an atomfn).
func (cc *countCompiler) atom(c presburger.Cmp) (frag, error) {
	if c.T.Const > maxLiteral || c.T.Const < -maxLiteral {
		// Beyond NuSMV's integers: the arithmetic form refuses it, as the
		// reduced model does, and k below cannot overflow.
		return cc.arith(c)
	}
	set, ok, err := cc.set(c.T)
	if err != nil {
		return frag{}, err
	}
	if !ok {
		return cc.arith(c)
	}
	// c is sum + set.shift + c.T.Const op 0, that is sum op k.
	k := -c.T.Const - set.shift
	before := len(cc.defs)
	cc.added = cc.added[:0]
	ge := func(k int64) (frag, bool) { return cc.ge(set, 0, k) }
	var out frag
	var fits bool
	switch c.Op {
	case presburger.Ge:
		out, fits = ge(k)
	case presburger.Gt:
		out, fits = ge(k + 1)
	case presburger.Le:
		out, fits = ge(k + 1)
		out = not(out)
	case presburger.Lt:
		out, fits = ge(k)
		out = not(out)
	case presburger.Eq, presburger.Ne:
		a, ok1 := ge(k)
		b, ok2 := ge(k + 1)
		fits = ok1 && ok2
		out = and(a, not(b))
		if c.Op == presburger.Ne {
			out = not(out)
		}
	default:
		return frag{}, fmt.Errorf("unknown comparison %v", c.Op)
	}
	if !fits {
		// Too many nodes: forget those this comparison printed (the
		// nodes of earlier comparisons stay).
		for _, key := range cc.added {
			delete(set.nodes, key)
		}
		cc.defs = cc.defs[:before]
		return cc.arith(c)
	}
	return out, nil
}

// set returns the count set of term t (ignoring its constant), creating
// it on first use; ok is false when t's weights are too large to sum
// safely.
func (cc *countCompiler) set(t presburger.Term) (*countSet, bool, error) {
	// Computing the weights takes a pass over every process: look the
	// term up first (guards repeat their atoms).
	tk := fmt.Sprint(t.Monos)
	if s, ok := cc.terms[tk]; ok {
		return s, true, nil
	}
	s, ok, err := cc.weigh(t)
	if ok && err == nil {
		cc.terms[tk] = s
	}
	return s, ok, err
}

// weigh computes the weights of term t and returns its count set.
func (cc *countCompiler) weigh(t presburger.Term) (*countSet, bool, error) {
	k := len(cc.sys.States)
	var w [][]int64
	var idx []int
	var shift int64
	for p, pr := range cc.procs {
		wp := make([]int64, k)
		for _, m := range t.Monos {
			s, g, ok := cc.sys.Counter(m.Var)
			if !ok {
				return nil, false, fmt.Errorf("variable %d is not a counter of the system", m.Var)
			}
			if g >= 0 && g != pr.group {
				continue
			}
			if m.Coef > maxWeight || m.Coef < -maxWeight || wp[s]+m.Coef > maxWeight || wp[s]+m.Coef < -maxWeight {
				return nil, false, nil
			}
			wp[s] += m.Coef
		}
		constant := true
		for s := 1; s < k; s++ {
			constant = constant && wp[s] == wp[0]
		}
		if constant {
			shift += wp[0]
			continue
		}
		idx = append(idx, p)
		w = append(w, wp)
	}
	var key strings.Builder
	fmt.Fprintf(&key, "%d|", shift)
	for j, p := range idx {
		fmt.Fprintf(&key, "%d:%v;", p, w[j])
	}
	if s, ok := cc.sets[key.String()]; ok {
		return s, true, nil
	}
	set := &countSet{idx: idx, w: w, shift: shift, nodes: map[[2]int64]frag{}, bits: true}
	set.lo, set.hi = make([]int64, len(idx)+1), make([]int64, len(idx)+1)
	for j := len(idx) - 1; j >= 0; j-- {
		mn, mx := w[j][0], w[j][0]
		for _, x := range w[j] {
			mn, mx = min(mn, x), max(mx, x)
			set.bits = set.bits && (x == 0 || x == 1)
		}
		set.lo[j], set.hi[j] = set.lo[j+1]+mn, set.hi[j+1]+mx
	}
	set.name = cc.nm.fresh("n_" + termName(cc.sys, t))
	cc.sets[key.String()] = set
	cc.notes = append(cc.notes, fmt.Sprintf("--   %-12s %s\n", set.name, comment(termText(cc.sys, t))))
	return set, true, nil
}

// ge returns "sum_{j' >= j} w[j'] >= k" over set, printing the DEFINEs it
// needs; ok is false when that would take more than cc.limit new nodes.
func (cc *countCompiler) ge(set *countSet, j int, k int64) (frag, bool) {
	budget := cc.limit
	f := cc.node(set, j, k, &budget)
	return f, budget >= 0
}

func (cc *countCompiler) node(set *countSet, j int, k int64, budget *int) frag {
	switch {
	case k <= set.lo[j]:
		return fragTrue
	case k > set.hi[j]:
		return fragFalse
	}
	key := [2]int64{int64(j), k}
	if f, ok := set.nodes[key]; ok {
		return f
	}
	if *budget--; *budget < 0 {
		return fragFalse // abandoned: the caller falls back
	}
	suffix := "_ge" + intName(k)
	if j > 0 {
		suffix += "_p" + strconv.Itoa(set.idx[j]+1)
	}
	p := cc.procs[set.idx[j]].name
	if j == 0 && k == 1 && set.bits {
		// At least one process in a state of weight 1.
		var terms []string
		for jj, pi := range set.idx {
			for s, x := range set.w[jj] {
				if x == 1 {
					terms = append(terms, cc.procs[pi].name+" = "+cc.st[s])
				}
			}
		}
		name := cc.nm.fresh(set.name + suffix)
		cc.defs = append(cc.defs, fmt.Sprintf("  %s := %s;\n", name, wrapJoin(terms, " | ", "      ")))
		return cc.memo(set, key, frag{name, precPrimary})
	}
	// One branch per weight value, in the order of the states that have
	// it; the most frequent target ends the case as TRUE.
	type branch struct {
		states []string
		to     frag
	}
	var bs []branch
	byWeight := map[int64]int{}
	for s, x := range set.w[j] {
		bi, ok := byWeight[x]
		if !ok {
			bi = len(bs)
			byWeight[x] = bi
			bs = append(bs, branch{to: cc.node(set, j+1, k-x, budget)})
		}
		bs[bi].states = append(bs[bi].states, cc.st[s])
	}
	if *budget < 0 {
		return fragFalse
	}
	// Branches leading to the same node merge; one target only means
	// the process does not matter for this k.
	merged := map[string]int{}
	var ms []branch
	for _, b := range bs {
		if i, ok := merged[b.to.s]; ok {
			ms[i].states = append(ms[i].states, b.states...)
			continue
		}
		merged[b.to.s] = len(ms)
		ms = append(ms, b)
	}
	if len(ms) == 1 {
		return cc.memo(set, key, ms[0].to)
	}
	last := 0
	for i := range ms {
		if len(ms[i].states) > len(ms[last].states) {
			last = i
		}
	}
	cond := func(br branch) frag {
		conds := make([]string, len(br.states))
		for x, s := range br.states {
			conds[x] = p + " = " + s
		}
		if len(conds) == 1 {
			return frag{conds[0], precRel}
		}
		return frag{strings.Join(conds, " | "), precOr}
	}
	var def string
	if len(ms) == 2 {
		// Written as a formula when a target is a constant: case c : TRUE;
		// TRUE : X; esac is c | X, and so on.
		c, a, e := cond(ms[1-last]), ms[1-last].to, ms[last].to
		switch {
		case a.s == "TRUE" && e.s == "FALSE":
			def = c.s
		case a.s == "FALSE" && e.s == "TRUE":
			def = not(c).s
		case a.s == "TRUE":
			def = c.in(precOr) + " | " + e.in(precOr)
		case a.s == "FALSE":
			def = not(c).s + " & " + e.in(precAnd)
		case e.s == "TRUE":
			def = not(c).s + " | " + a.in(precOr)
		case e.s == "FALSE":
			def = c.in(precAnd) + " & " + a.in(precAnd)
		}
	}
	if def == "" {
		var b strings.Builder
		b.WriteString("case ")
		for i, br := range ms {
			if i != last {
				fmt.Fprintf(&b, "%s : %s; ", cond(br).s, br.to.s)
			}
		}
		fmt.Fprintf(&b, "TRUE : %s; esac", ms[last].to.s)
		def = b.String()
	}
	name := cc.nm.fresh(set.name + suffix)
	cc.defs = append(cc.defs, fmt.Sprintf("  %s := %s;\n", name, def))
	return cc.memo(set, key, frag{name, precPrimary})
}

func (cc *countCompiler) memo(set *countSet, key [2]int64, f frag) frag {
	set.nodes[key] = f
	cc.added = append(cc.added, key)
	return f
}

func intName(k int64) string {
	if k < 0 {
		return "m" + strconv.FormatInt(-k, 10)
	}
	return strconv.FormatInt(k, 10)
}

// termName names a count set after its counters: #W1 + #C1 is W1_C1,
// #W1[g1] is W1_g1, 2*#A - #B is 2A_mB.
func termName(sys *gsst.System, t presburger.Term) string {
	var parts []string
	for _, m := range t.Monos {
		s, g, _ := sys.Counter(m.Var)
		n := sys.States[s]
		if g >= 0 {
			n += "_" + sys.Groups[g].Name
		}
		switch {
		case m.Coef == 1:
		case m.Coef == -1:
			n = "m" + n
		case m.Coef < 0:
			n = "m" + strconv.FormatInt(-m.Coef, 10) + n
		default:
			n = strconv.FormatInt(m.Coef, 10) + n
		}
		parts = append(parts, n)
	}
	return strings.Join(parts, "_")
}

// termText writes t without its constant, as in a GSST guard.
func termText(sys *gsst.System, t presburger.Term) string {
	u := t
	u.Const = 0
	return u.Format(sys.VarName)
}

// atLeastOne is the comparison t >= 1.
func atLeastOne(t presburger.Term) presburger.Cmp {
	return presburger.Cmp{T: t.Add(presburger.ConstTerm(-1)), Op: presburger.Ge}
}

func not(f frag) frag {
	switch f.s {
	case "TRUE":
		return fragFalse
	case "FALSE":
		return fragTrue
	}
	return frag{"!" + f.in(precPrimary), precPrimary}
}

func and(a, b frag) frag {
	switch {
	case a.s == "FALSE" || b.s == "FALSE":
		return fragFalse
	case a.s == "TRUE":
		return b
	case b.s == "TRUE":
		return a
	}
	return frag{a.in(precAnd) + " & " + b.in(precAnd), precAnd}
}
