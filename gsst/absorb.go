package gsst

import (
	"slices"

	"github.com/vsym/vsym/presburger"
)

// A translation may write a step A -> B as two, A -> M with the guard
// and the update, then M -> B unguarded, through a state M of its own
// (the style hunt's "interm" class: ByMC's c1cs with twelve such states
// took 1.6 s to prove where the base takes 0.4). Where nothing reads M
// or B, the second step is no step of the protocol: it is always
// enabled, commutes with every other step, and changes nothing read.
//
// AbsorbSteps returns s with each such M absorbed: every transition
// into M goes to B instead, and M's one transition out is gone; M stays
// a state (so that the states are numbered as in s), which no process
// ever enters. Absorbed[M] is B, for each M absorbed. M is absorbed
// when
//
//   - no process starts in M, and its one step out is a transition to
//     B != M, unguarded, with no update or broadcast, of every group;
//     no transition into M is from B (it would become a step from B to
//     B: a net's rule state returning to its hub, which prove's
//     backward search fuses instead);
//   - nothing else moves a process into or out of M (a rendezvous part,
//     a broadcast's transfer), nor out of B by a broadcast;
//   - no guard, property, justice condition or the assumption reads the
//     counters of M or of B, and B is not absorbed itself (of a chain
//     of intermediate states, the last is absorbed first);
//   - the system has no weak fairness (it names transitions).
//
// The map P that moves M's processes to B is then a simulation of s by
// the absorbed system that keeps everything read (guards, properties,
// justice): the step M -> B leaves P(x) as it is, and every other step
// of s from x to y is a step of the absorbed system from P(x) to P(y),
// with A -> M read as A -> B. Conversely a run of the absorbed system is
// one of s with each step into B through M followed by M -> B. So a
// safety invariant I of the absorbed system gives the invariant of s
// read with #B as #B + #M and #M as 0; prove re-checks it on s, replays
// a run on s with each step into B through M, and asks s itself what
// does not carry.
func (s *System) AbsorbSteps() (absorbed *System, into map[int]int, ok bool, err error) {
	if len(s.Fairness.Weak) > 0 {
		return nil, nil, false, nil
	}
	read := s.readStates()
	moved := make([]bool, len(s.States)) // moved by anything but a transition
	bcastFrom := make([]bool, len(s.States))
	transfers := func(xs []Transfer) {
		for _, x := range xs {
			moved[x.From], moved[x.To], bcastFrom[x.From] = true, true, true
		}
	}
	out := make([][]int, len(s.States)) // the transitions out of each state
	for i := range s.Transitions {
		t := &s.Transitions[i]
		out[t.From] = append(out[t.From], i)
		transfers(t.Broadcast)
	}
	for i := range s.Rendezvous {
		for _, p := range s.Rendezvous[i].Parts {
			moved[p.From], moved[p.To] = true, true
		}
		transfers(s.Rendezvous[i].Broadcast)
	}
	for i := range s.Environment {
		transfers(s.Environment[i].Broadcast)
	}
	starts := func(m int) bool {
		for g := range s.Groups {
			if s.Init[g][m] != 0 || s.InitOver != nil && slices.Contains(s.InitOver[g], m) {
				return true
			}
		}
		return false
	}
	into = map[int]int{}
	for m := range s.States {
		if len(out[m]) != 1 || read[m] || moved[m] || starts(m) {
			continue
		}
		t := &s.Transitions[out[m][0]]
		b := t.To
		if b == m || read[b] || bcastFrom[b] || len(t.Broadcast) > 0 || !s.plainStep(t) {
			continue
		}
		into[m] = b
	}
	// An intermediate state's target that is absorbed itself stays; so
	// does one entered from its target (B -> M -> B: a net's rule state
	// returning to its hub, which would become a step from B to B).
	for m, b := range into {
		if _, ok := into[b]; ok {
			delete(into, m)
		}
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		if b, ok := into[t.To]; ok && t.From == b {
			delete(into, t.To)
		}
	}
	if len(into) == 0 {
		return nil, nil, false, nil
	}
	spec := s.Spec()
	var ts []Transition
	for _, t := range spec.Transitions {
		if _, ok := into[t.From]; ok {
			continue
		}
		if b, ok := into[t.To]; ok {
			if t.Name == "" {
				// A name of its own: the system may step from A to B
				// already.
				t.Name = spec.States[t.To]
			}
			t.To = b
		}
		ts = append(ts, t)
	}
	spec.Transitions = ts
	sys, err := New(spec)
	if err != nil {
		// Names that clash, say: the system as written is asked.
		return nil, nil, false, nil
	}
	return sys, into, true, nil
}

// plainStep reports whether t is unguarded, updates nothing and is a
// step of every group.
func (s *System) plainStep(t *Transition) bool {
	var groups []int
	for _, b := range t.Blocks {
		if b.Guard != nil && b.Guard != presburger.True || len(b.Update.Assign) > 0 {
			return false
		}
		groups = append(groups, b.Groups...)
	}
	for g := range s.Groups {
		if !slices.Contains(groups, g) {
			return false
		}
	}
	return true
}

// readStates marks the states whose counters (total or of a group) some
// guard, property atom, justice condition or the assumption reads (an
// update reads no counter: eachRead).
func (s *System) readStates() []bool {
	read := make([]bool, len(s.States))
	s.eachRead(func(v presburger.Var) {
		if st, _, ok := s.Counter(v); ok {
			read[st] = true
		}
	})
	return read
}
