package mist_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vsym/vsym/formats/mist"
)

// This file is mist's semantics read straight from the syntax tree, for
// the cross-checks: a marking is a number of tokens per place; a rule may
// fire when every constraint of its guard holds, and then every place
// with an equation takes the value of its right side, read in the
// marking before the step, every other place keeps its tokens, and the
// step is refused when a place would go below zero. It shares nothing
// with the translation but the parser.

type netSim struct {
	f      *mist.File
	index  map[string]int
	places []string
}

func newNetSim(f *mist.File) *netSim {
	s := &netSim{f: f, index: map[string]int{}}
	for _, v := range f.Vars {
		s.index[v.Name] = len(s.places)
		s.places = append(s.places, v.Name)
	}
	return s
}

// holds reports whether constraint c holds in marking m.
func (s *netSim) holds(c *mist.Constraint, m []int64) bool {
	x := m[s.index[c.Place.Name]]
	switch c.Op {
	case mist.Eq:
		return x == c.K
	case mist.Geq:
		return x >= c.K
	}
	return x >= c.K && x <= c.Hi
}

// fire returns the marking after rule r from m, and false when r may not
// fire.
func (s *netSim) fire(r *mist.Rule, m []int64) ([]int64, bool) {
	// A rule that assigns a place twice has no reading as equations;
	// mist's own is the one it has.
	assigned := map[string]bool{}
	for _, a := range r.Assigns {
		if assigned[a.Place.Name] {
			return s.mistPost(r, m)
		}
		assigned[a.Place.Name] = true
	}
	for _, c := range r.Guard {
		if !s.holds(c, m) {
			return nil, false
		}
	}
	next := slices.Clone(m)
	for _, a := range r.Assigns {
		var v int64
		for _, t := range a.Terms {
			x := t.Value
			if t.Place != nil {
				x = m[s.index[t.Place.Name]]
			}
			if t.Neg {
				x = -x
			}
			v += x
		}
		next[s.index[a.Place.Name]] = v
	}
	for _, x := range next {
		if x < 0 {
			return nil, false
		}
	}
	return next, true
}

// covers reports whether m covers the target (meets one conjunction).
func (s *netSim) covers(m []int64) bool {
	for _, conj := range s.f.Target {
		all := true
		for _, c := range conj {
			all = all && s.holds(c, m)
		}
		if all {
			return true
		}
	}
	return false
}

// initials returns initial markings of the net: for each place the
// values its init constraint allows, from the least, at most two.
func (s *netSim) initials(limit int) [][]int64 {
	choices := make([][]int64, len(s.places))
	for p := range choices {
		choices[p] = []int64{0, 1} // not constrained: any number
	}
	for _, c := range s.f.Init {
		p := s.index[c.Place.Name]
		switch c.Op {
		case mist.Eq:
			choices[p] = []int64{c.K}
		case mist.Geq:
			choices[p] = []int64{c.K, c.K + 1, c.K + 2}
		default:
			choices[p] = []int64{c.K}
			if c.Hi > c.K {
				choices[p] = append(choices[p], c.K+1)
			}
		}
	}
	var out [][]int64
	var rec func(p int, cur []int64)
	rec = func(p int, cur []int64) {
		if len(out) >= limit {
			return
		}
		if p == len(choices) {
			out = append(out, slices.Clone(cur))
			return
		}
		for _, v := range choices[p] {
			rec(p+1, append(cur, v))
		}
	}
	rec(0, nil)
	return out
}

// reach explores the markings reachable from init breadth first, to
// depth maxDepth, stopping inside the first layer that takes the
// markings seen beyond maxStates: the markings with their least depth,
// the last layer explored in full (every marking of depth at most
// reached is in seen), and whether the search ended before either bound
// (every reachable marking found).
func (s *netSim) reach(init []int64, maxDepth, maxStates int) (seen map[string]int, reached int, done bool) {
	seen = map[string]int{key(init): 0}
	frontier := [][]int64{init}
	for depth := 1; len(frontier) > 0; depth++ {
		if depth > maxDepth {
			return seen, maxDepth, false
		}
		var next [][]int64
		for _, m := range frontier {
			for _, r := range s.f.Rules {
				if m2, ok := s.fire(r, m); ok {
					k := key(m2)
					if _, dup := seen[k]; !dup {
						seen[k] = depth
						next = append(next, m2)
						if len(seen) > maxStates {
							return seen, depth - 1, false
						}
					}
				}
			}
		}
		frontier = next
	}
	return seen, maxDepth, true
}

// key writes a marking.
func key[T int | int64](m []T) string {
	var b strings.Builder
	for i, x := range m {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// mistReads reports whether mist itself reads f: its equations add
// places and then add or subtract at most one integer, and none sets a
// place to an integer other than 0 (which mist refuses).
func mistReads(f *mist.File) bool {
	for _, r := range f.Rules {
		for _, a := range r.Assigns {
			places := 0
			for i, t := range a.Terms {
				if t.Place == nil && i != len(a.Terms)-1 {
					return false
				}
				if t.Place != nil {
					places++
				}
			}
			if last := a.Terms[len(a.Terms)-1]; places == 0 && last.Value != 0 {
				return false
			}
		}
	}
	return true
}

// mistPost is the marking after rule r from m as mist computes it (its
// enumerative post): the guard's intervals, then the integer of every
// equation added to its place (of two equations for one place, the
// later's: mist's codegenrules.c sets a place's integer, equation by
// equation), then, equation by equation, the tokens of every other place
// the right side names moved into the equation's place, emptying them.
func (s *netSim) mistPost(r *mist.Rule, m []int64) ([]int64, bool) {
	for _, c := range r.Guard {
		if !s.holds(c, m) {
			return nil, false
		}
	}
	next := slices.Clone(m)
	delta := make([]int64, len(m))
	for _, a := range r.Assigns {
		last := a.Terms[len(a.Terms)-1]
		if last.Place == nil {
			d := last.Value
			if last.Neg {
				d = -d
			}
			delta[s.index[a.Place.Name]] = d
		}
	}
	for p, d := range delta {
		next[p] += d
	}
	for _, a := range r.Assigns {
		p := s.index[a.Place.Name]
		var moved int64
		done := map[int]bool{}
		for _, t := range a.Terms {
			if t.Place == nil {
				continue
			}
			q := s.index[t.Place.Name]
			if q == p || done[q] {
				continue
			}
			done[q] = true
			moved += next[q]
			next[q] = 0
		}
		next[p] += moved
	}
	for _, x := range next {
		if x < 0 {
			return nil, false
		}
	}
	return next, true
}
