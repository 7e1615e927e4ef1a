package explore

import (
	"math/big"
	"slices"

	"github.com/vsym/vsym/counterabs"
)

// This file holds what makes a report the same whichever engine fills
// it: the order in which states are compared when a trace or an example
// is chosen among several, and the count of concrete states.
//
// A trace is canonical: every path segment is shortest, and among the
// shortest it is the one chosen backwards from its end by least states.
// From `from`, the breadth-first layers L0 = {from}, L1, ... (L(i+1) the
// successors of the states of Li that lie in `through`, less the states
// of earlier layers) are what both engines compute, explicitly or as
// BDDs. The path ends in the least state of the first layer Ld meeting
// the target, and each earlier state is the least predecessor of the
// next one in the layer before that lies in `through`. Far, the
// farthest state, is the least state of the last layer; a step is to the
// least successor. Least is LessState's order: the model's variables
// (counters, then shared variables, as counterabs.Model numbers them)
// compared lexicographically by value.

// Compare orders two states of one model, each a value per variable of
// the model (counters, then shared variables): lexicographically by
// value. It is the order in which every engine picks a state among
// several (see the comment above).
func Compare[T ~int | ~int64](a, b []T) int { return slices.Compare(a, b) }

// Bounds on the reports whose concrete state count (Report.ConcreteStates)
// is computed: at most MaxConcreteProcs processes (the multinomials grow
// huge) and MaxConcreteStates reachable states (each state costs about a
// microsecond, and the BDD engine enumerates them).
const (
	MaxConcreteProcs  = 1000
	MaxConcreteStates = 1_000_000
)

// ConcreteCountable says whether an engine computes the concrete state
// count of a report on m with states reachable states: for a
// group-counter model within the bounds above.
func ConcreteCountable(m *counterabs.Model, states *big.Int) bool {
	return m.Level == counterabs.GroupLevel && m.N <= MaxConcreteProcs && states != nil && states.Cmp(big.NewInt(MaxConcreteStates)) <= 0
}

// ConcreteCounter sums, over the states added to it, the number of
// process-indexed configurations each stands for: the product over pools
// (groups) of the multinomial of the pool's counters. Both engines count
// Report.ConcreteStates with it.
type ConcreteCounter struct {
	m     *counterabs.Model
	cache []map[string]*big.Int // per pool, by the pool's counters
	total big.Int
	prod  big.Int
	kb    []byte
}

// NewConcreteCounter returns a counter for states of m.
func NewConcreteCounter(m *counterabs.Model) *ConcreteCounter {
	c := &ConcreteCounter{m: m, cache: make([]map[string]*big.Int, len(m.Pools))}
	for p := range c.cache {
		c.cache[p] = map[string]*big.Int{}
	}
	return c
}

// Add counts the state x, a value per variable of the model.
func (c *ConcreteCounter) Add(x []int64) {
	c.prod.SetInt64(1)
	for p, pl := range c.m.Pools {
		c.kb = c.kb[:0]
		for _, v := range pl.Counters {
			n := x[v]
			c.kb = append(c.kb, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		}
		mn, ok := c.cache[p][string(c.kb)]
		if !ok {
			mn = big.NewInt(1)
			rest := int64(pl.Sum)
			var b big.Int
			for _, v := range pl.Counters {
				mn.Mul(mn, b.Binomial(rest, x[v]))
				rest -= x[v]
			}
			c.cache[p][string(c.kb)] = mn
		}
		c.prod.Mul(&c.prod, mn)
	}
	c.total.Add(&c.total, &c.prod)
}

// Total returns the sum so far.
func (c *ConcreteCounter) Total() *big.Int { return new(big.Int).Set(&c.total) }
