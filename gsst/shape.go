package gsst

import (
	"errors"
	"fmt"

	"github.com/vsym/vsym/presburger"
)

// CheckShape reports the first way in which s is not a system the analyses
// can give a meaning to: a group size outside 0..MaxProcesses, more than
// MaxProcesses processes in all, a transition whose state or group is out
// of range, a group in two blocks of one transition, a nil guard, or a
// guard over a variable that is not a counter of s. A System from Load or
// Parse always passes; the check guards the packages that accept systems
// built by hand (the messages have no package prefix, for callers to add).
// It does not look at Init or Properties.
func (s *System) CheckShape() error {
	if s == nil {
		return errors.New("nil system")
	}
	m, d := len(s.States), len(s.Groups)
	n := 0
	for _, g := range s.Groups {
		if g.Size < 0 || g.Size > MaxProcesses {
			return fmt.Errorf("group %s has size %d", g.Name, g.Size)
		}
		n += g.Size
	}
	if n > MaxProcesses {
		return fmt.Errorf("%d processes exceed the limit %d", n, MaxProcesses)
	}
	for i := range s.Transitions {
		t := &s.Transitions[i]
		if t.From < 0 || t.From >= m || t.To < 0 || t.To >= m {
			return fmt.Errorf("transition %d has a state out of range", i)
		}
		name := s.TransitionName(t)
		seen := make([]bool, d)
		for _, b := range t.Blocks {
			for _, g := range b.Groups {
				if g < 0 || g >= d {
					return fmt.Errorf("transition %s: group %d out of range", name, g)
				}
				if seen[g] {
					return fmt.Errorf("transition %s: group %s is in two blocks", name, s.Groups[g].Name)
				}
				seen[g] = true
			}
			if b.Guard == nil {
				return fmt.Errorf("transition %s: nil guard", name)
			}
			for _, v := range presburger.FreeVars(b.Guard) {
				if _, _, ok := s.Counter(v); !ok {
					return fmt.Errorf("transition %s: guard uses variable %d, which is not a counter", name, v)
				}
			}
		}
	}
	return nil
}
