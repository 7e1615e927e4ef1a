package gsst

// MayOccupy returns, for each group g and state st, whether a process of
// g may ever be in st: it starts there, or some step moves a process of
// g there (a part or a transfer that allows g) from a state where g may
// be, in a step each of whose parts may find a mover. Guards, updates
// and the numbers of processes are not read, so this over-approximates
// the reachable configurations: a counter (g, st) it rules out is 0 in
// every one of them, and a step that would move a process of g out of
// it is never taken. The group-level counter models leave such steps out
// (a rendezvous part that allows any group gets one copy per group; a
// token group's copy of a process's state is empty).
func (s *Spec) MayOccupy() [][]bool {
	occ := make([][]bool, len(s.Groups))
	for g := range s.Groups {
		occ[g] = make([]bool, len(s.States))
		_, one := s.InitState(g)
		spread := s.InitOver != nil && s.InitOver[g] != nil
		grp := &s.Groups[g]
		if !one && !spread && (grp.Ranged || grp.OverParams()) {
			// No initial state written for a size that may grow:
			// nothing is ruled out.
			for st := range occ[g] {
				occ[g][st] = true
			}
			continue
		}
		for st, k := range s.Init[g] {
			occ[g][st] = k > 0
		}
		if spread {
			for _, st := range s.InitOver[g] {
				occ[g][st] = true
			}
		}
	}
	steps := s.Steps()
	for changed := true; changed; {
		changed = false
		for i := range steps {
			st := &steps[i]
			if !s.mayFire(st, occ) {
				continue
			}
			mark := func(from, to int, allows func(int) bool) {
				for g := range s.Groups {
					if allows(g) && occ[g][from] && !occ[g][to] {
						occ[g][to], changed = true, true
					}
				}
			}
			for k := range st.Parts {
				mark(st.Parts[k].From, st.Parts[k].To, st.Parts[k].Allows)
			}
			for k := range st.Transfers {
				mark(st.Transfers[k].From, st.Transfers[k].To, st.Transfers[k].Allows)
			}
		}
	}
	return occ
}

// mayFire says whether each part of st may find a mover by occ.
func (s *Spec) mayFire(st *Step, occ [][]bool) bool {
	for k := range st.Parts {
		p := &st.Parts[k]
		found := false
		for g := range s.Groups {
			if p.Allows(g) && occ[g][p.From] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
