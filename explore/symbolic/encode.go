package symbolic

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/dalzilio/rudd"
	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/internal/checked"
	"github.com/vsym/vsym/presburger"
)

// Order is a BDD variable order for the counter bits.
type Order int

const (
	// Interleaved puts bit j of every counter together, most significant
	// bit first: x1[b-1] x2[b-1] ... xm[b-1] x1[b-2] ... xm[0]. Each
	// current bit is followed by its next-state copy.
	Interleaved Order = iota
	// Blocked puts all bits of counter 1 (MSB first), then counter 2, and
	// so on; each current bit is followed by its next-state copy.
	Blocked
	// Split is Blocked for the current bits followed by the same order for
	// the next-state bits (no current/next interleaving).
	Split
	// Auto chooses Blocked when some guard compares a combination of
	// several counters and N is small enough, else Interleaved (see
	// autoOrder).
	Auto
)

var orderNames = [...]string{Interleaved: "interleaved", Blocked: "blocked", Split: "split", Auto: "auto"}

func (o Order) String() string {
	if o < 0 || int(o) >= len(orderNames) {
		return fmt.Sprintf("Order(%d)", int(o))
	}
	return orderNames[o]
}

// ParseOrder returns the order named s.
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("unknown variable order %q (want %s)", s, strings.Join(orderNames[:], ", "))
}

// encoding maps the model's variables to BDD variables: the counters,
// then the shared variables (Model.SharedVar). Variable i has
// len(cur[i]) bits, enough for the sum of its pool (a counter) or for its
// domain (a shared variable); the bits write its value less lo[i] (the
// least value of a shared variable's domain, 0 for a counter), and bit j
// (weight 2^j) of that is BDD variable cur[i][j] in the current state and
// next[i][j] in the next.
type encoding struct {
	m         int // counters; variables m.. are the shared variables
	bits      int // current-state bits of all variables
	cur, next [][]int
	lo        []int64
}

// bitsFor returns the number of bits needed to write 0..n in binary.
func bitsFor(n int) int {
	if n <= 0 {
		return 1
	}
	return bits.Len(uint(n))
}

// newEncoding lays out the bits of variables whose values lie in
// lo[i]..lo[i]+limits[i] (lo nil: from 0); the first m are counters. perm
// lists the variables in the order they are placed (nil: natural order).
// With Interleaved, bit j of every variable that has one sits together,
// most significant bits first.
func newEncoding(m int, limits []int, lo []int64, order Order, perm []int) *encoding {
	nv := len(limits)
	if perm == nil {
		perm = make([]int, nv)
		for i := range perm {
			perm[i] = i
		}
	}
	if lo == nil {
		lo = make([]int64, nv)
	}
	e := &encoding{m: m, cur: make([][]int, nv), next: make([][]int, nv), lo: lo}
	top := 0
	for i := range e.cur {
		w := bitsFor(limits[i])
		e.cur[i] = make([]int, w)
		e.next[i] = make([]int, w)
		e.bits += w
		top = max(top, w)
	}
	lvl := 0
	switch order {
	case Interleaved:
		for j := top - 1; j >= 0; j-- {
			for _, i := range perm {
				if j < len(e.cur[i]) {
					e.cur[i][j], e.next[i][j] = lvl, lvl+1
					lvl += 2
				}
			}
		}
	case Blocked:
		for _, i := range perm {
			for j := len(e.cur[i]) - 1; j >= 0; j-- {
				e.cur[i][j], e.next[i][j] = lvl, lvl+1
				lvl += 2
			}
		}
	default: // Split
		for _, i := range perm {
			for j := len(e.cur[i]) - 1; j >= 0; j-- {
				e.cur[i][j] = lvl
				e.next[i][j] = lvl + e.bits
				lvl++
			}
		}
	}
	return e
}

func (e *encoding) numVars() int { return 2 * e.bits }

// bitTerm is one BDD variable with an integer weight in a linear sum.
type bitTerm struct {
	level  int
	weight int64
}

// errTooLarge reports a linear constraint whose partial sums could leave
// the range the encoder computes in; it refuses it rather than wrap.
var errTooLarge = fmt.Errorf("a linear constraint whose weighted bits sum beyond ±2^61, the limit of the BDD encoding")

// linear builds the BDD of "sum(w*bit) + c op 0" exactly, by a memoized
// recursion over the bits in variable order: at each level the partial sum
// of the decided bits is the only state, and a branch is cut as soon as
// every completion satisfies (True) or violates (False) the comparison.
// With most significant bits first the number of live partial sums per
// level stays small, which keeps both the construction and the result
// compact.
func linear(b *rudd.BDD, terms []bitTerm, c int64, op presburger.Op) (rudd.Node, error) {
	const limit = math.MaxInt64 / 4
	if c > limit || c < -limit {
		return nil, errTooLarge
	}
	// Normalise strict comparisons over the integers.
	switch op {
	case presburger.Lt:
		op, c = presburger.Le, c+1 // t + c < 0  <=>  t + c + 1 <= 0
	case presburger.Gt:
		op, c = presburger.Ge, c-1
	case presburger.Ne:
		n, err := linear(b, terms, c, presburger.Eq)
		if err != nil {
			return nil, err
		}
		return b.Not(n), nil
	}
	ts := make([]bitTerm, 0, len(terms))
	for _, t := range terms {
		if t.weight != 0 {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].level < ts[j].level })
	// Merge repeated levels (a variable listed twice).
	k := 0
	for _, t := range ts {
		if k > 0 && ts[k-1].level == t.level {
			w, ok := checked.Add(ts[k-1].weight, t.weight)
			if !ok {
				return nil, errTooLarge
			}
			ts[k-1].weight = w
			continue
		}
		ts[k] = t
		k++
	}
	ts = ts[:k]
	lo := make([]int64, len(ts)+1) // lo[i]: least sum of bits i..end
	hi := make([]int64, len(ts)+1)
	// Every partial sum stays within ±limit and c within ±limit (plus
	// one), so acc + lo[i] and acc + hi[i] below stay inside int64.
	for i := len(ts) - 1; i >= 0; i-- {
		w := ts[i].weight
		if w > limit || w < -limit {
			return nil, errTooLarge
		}
		lo[i], hi[i] = lo[i+1], hi[i+1]
		if w > 0 {
			hi[i] += w
		} else {
			lo[i] += w
		}
		if hi[i] > limit || lo[i] < -limit {
			return nil, errTooLarge
		}
	}
	decided := func(i int, acc int64) (rudd.Node, bool) {
		min, max := acc+lo[i], acc+hi[i]
		switch op {
		case presburger.Eq:
			if min > 0 || max < 0 {
				return b.False(), true
			}
			if min == 0 && max == 0 {
				return b.True(), true
			}
		case presburger.Le:
			if max <= 0 {
				return b.True(), true
			}
			if min > 0 {
				return b.False(), true
			}
		default: // Ge
			if min >= 0 {
				return b.True(), true
			}
			if max < 0 {
				return b.False(), true
			}
		}
		return nil, false
	}
	type key struct {
		i   int
		acc int64
	}
	memo := map[key]rudd.Node{}
	var rec func(i int, acc int64) rudd.Node
	calls := 0
	rec = func(i int, acc int64) rudd.Node {
		// Most results may be constants, which build no node, so the
		// recursion polls the interrupt (the context, the memory bound)
		// itself, and stops once it fired: it may have exponentially
		// many calls left.
		if calls++; calls&0xfff == 0 && b.Poll() || b.Errored() {
			return nil
		}
		if n, ok := decided(i, acc); ok {
			return n
		}
		k := key{i, acc}
		if n, ok := memo[k]; ok {
			return n
		}
		hiN := rec(i+1, acc+ts[i].weight)
		loN := rec(i+1, acc)
		n := b.Ite(b.Ithvar(ts[i].level), hiN, loN)
		memo[k] = n
		return n
	}
	n := rec(0, c)
	if b.Errored() {
		return nil, fmt.Errorf("bdd: %s", b.Error())
	}
	return n, nil
}

// counterTerms expands coef*(x_i - lo[i]) into the weighted bits of
// variable i (current copy when next is false); for a counter that is
// coef*x_i. varTerms adds the offset.
func (e *encoding) counterTerms(i int, coef int64, next bool) ([]bitTerm, error) {
	vars := e.cur[i]
	if next {
		vars = e.next[i]
	}
	out := make([]bitTerm, len(vars))
	for j, l := range vars {
		w := coef << uint(j)
		if w>>uint(j) != coef {
			return nil, errTooLarge
		}
		out[j] = bitTerm{l, w}
	}
	return out, nil
}

// varTerms expands coef*x_i into the weighted bits of variable i and a
// constant (coef*lo[i], the offset of a shared variable's domain).
func (e *encoding) varTerms(i int, coef int64, next bool) ([]bitTerm, int64, error) {
	ts, err := e.counterTerms(i, coef, next)
	if err != nil {
		return nil, 0, err
	}
	off, ok := checked.Mul(coef, e.lo[i])
	if !ok {
		return nil, 0, errTooLarge
	}
	return ts, off, nil
}

// termBits expands the linear term t over the model's variables (coef
// times each, current copy unless next) into weighted bits and a
// constant.
func (e *encoding) termBits(t presburger.Term, coef int64, next bool) ([]bitTerm, int64, error) {
	var out []bitTerm
	c, ok := checked.Mul(coef, t.Const)
	if !ok {
		return nil, 0, errTooLarge
	}
	for _, mo := range t.Monos {
		if mo.Var < 0 || int(mo.Var) >= len(e.cur) {
			return nil, 0, fmt.Errorf("variable v%d is not a variable of the model", mo.Var)
		}
		k, ok := checked.Mul(coef, mo.Coef)
		if !ok {
			return nil, 0, errTooLarge
		}
		ts, off, err := e.varTerms(int(mo.Var), k, next)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, ts...)
		if c, ok = checked.Add(c, off); !ok {
			return nil, 0, errTooLarge
		}
	}
	return out, c, nil
}

// guardCompiler turns Presburger formulas over the model's variables
// (counters and shared variables) into BDDs over the current-state bits.
type guardCompiler struct {
	b *rudd.BDD
	e *encoding
	// maxEnum bounds the number of assignments enumerated for the bound
	// variables of an Exists.
	maxEnum int64
}

func (g *guardCompiler) compile(f presburger.Formula) (rudd.Node, error) {
	b := g.b
	switch f := f.(type) {
	case presburger.Bool:
		return b.From(bool(f)), nil
	case presburger.Cmp:
		terms, c, err := g.e.termBits(f.T, 1, false)
		if err != nil {
			return nil, err
		}
		return linear(b, terms, c, f.Op)
	case presburger.Not:
		n, err := g.compile(f.F)
		if err != nil {
			return nil, err
		}
		return b.Not(n), nil
	case presburger.And:
		acc := b.True()
		for _, h := range f {
			n, err := g.compile(h)
			if err != nil {
				return nil, err
			}
			acc = b.And(acc, n)
		}
		return acc, nil
	case presburger.Or:
		acc := b.False()
		for _, h := range f {
			n, err := g.compile(h)
			if err != nil {
				return nil, err
			}
			acc = b.Or(acc, n)
		}
		return acc, nil
	case presburger.Exists:
		// Bounded quantifiers are expanded into a disjunction over their
		// ranges; counterabs guards are quantifier-free in practice, so
		// this is a safety net with a size limit rather than a fast path.
		body, err := presburger.Expand(f, g.maxEnum)
		if err != nil {
			return nil, err
		}
		return g.compile(body)
	}
	return nil, fmt.Errorf("unsupported formula %T", f)
}

// affinityOrder orders the m variables of a model (counters, then
// shared variables) so that variables read or written by the same
// transition sit close together: starting from variable 0, it repeatedly
// places the unplaced variable most strongly tied to the recently placed
// ones (ties weigh less the longer ago their partner was placed;
// remaining ties go to the lower index). A transition ties its source and
// target strongly and each of them to the variables its guard reads; a
// step beyond the paper ties each further move's ends, each transfer's
// ends, and each assigned shared variable to the variables its value
// reads and to the mover's source. On ASR this yields N, W1, C1, W2, C2,
// ...: each resource's pair of counters adjacent, which the natural order
// N, W1..Wr, C1..Cr is not. A shared variable lands beside the counters
// whose transitions read or assign it.
func affinityOrder(m int, trans []counterabs.Transition) []int {
	w := make([][]float64, m)
	for i := range w {
		w[i] = make([]float64, m)
	}
	tie := func(a, b int, x float64) {
		if a >= 0 && b >= 0 && a < m && b < m && a != b {
			w[a][b] += x
			w[b][a] += x
		}
	}
	for _, t := range trans {
		tie(t.From, t.To, 4)
		for _, v := range presburger.FreeVars(t.Guard) {
			tie(t.From, int(v), 2)
			tie(t.To, int(v), 1)
		}
		// The other movers of a step, its transfers and its assignments
		// tie what they change to what they read, as a move does.
		for _, mv := range t.Also {
			tie(mv.From, mv.To, 4)
			tie(t.From, mv.From, 1)
		}
		for _, mv := range t.Transfers {
			tie(mv.From, mv.To, 4)
			tie(t.To, mv.From, 1)
		}
		for _, a := range t.Assign {
			tie(t.From, a.Var, 2)
			for _, mo := range a.Value.Monos {
				tie(a.Var, int(mo.Var), 4)
			}
		}
	}
	placed := make([]bool, m)
	order := []int{0}
	placed[0] = true
	for len(order) < m {
		best, bestScore := -1, -1.0
		for c := 0; c < m; c++ {
			if placed[c] {
				continue
			}
			score, decay := 0.0, 1.0
			for i := len(order) - 1; i >= 0; i-- {
				score += w[order[i]][c] * decay
				decay *= 0.5
			}
			if score > bestScore {
				best, bestScore = c, score
			}
		}
		placed[best] = true
		order = append(order, best)
	}
	return order
}
