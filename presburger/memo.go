package presburger

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"
)

// Memo is a Solver that remembers the large problems its solver showed
// unsatisfiable and, once Answering is set, answers a problem that is
// one of them again, up to the names of its variables, Unsat without
// asking: the same question, asked of another system's variables, has
// the same answer.
//
// The question it serves: a proof found on a derived system (one
// without the shared variables nothing reads) is re-checked on the
// system as written, whose obligations are, query for query, those the
// derived proof's check already decided, with the variables numbered
// otherwise and the variables left out unconstrained but by their
// ranges; Z3 took as long for each of them again (Cubicle's crash with
// a step counter nothing reads: 0.5 s of a 1.2 s run). The re-check
// still asks every obligation of the system as written; Memo only
// recognises an answer already given.
//
// Two problems are the same when their canonical forms are equal
// (memoKey): the formula with each variable replaced by the order of
// its first occurrence, and the ranges of the variables it reads. The
// renaming is one to one on each problem's variables, so equal forms
// are the same problem with its variables renamed, which has the same
// models, renamed; a variable the formula does not read only has to
// have a value in its range, which it has unless the range is empty,
// and a problem with an empty range is not remembered. Small problems
// (fewer than memoAtoms comparisons) are neither remembered nor looked
// up: asking again costs little, and their forms would cost as much.
type Memo struct {
	s         Solver
	mu        sync.Mutex
	unsat     map[string]bool
	size      int
	answering bool
}

// memoAtoms is the least number of comparisons of a problem Memo
// remembers; memoBytes bounds the size of the forms it keeps, in all
// (the first ones are kept: which ones depends on the questions, never
// on time).
const (
	memoAtoms = 256
	memoBytes = 64 << 20
)

// NewMemo returns a Memo that asks s; it only remembers until Answering
// is called.
func NewMemo(s Solver) *Memo { return &Memo{s: s, unsat: map[string]bool{}} }

// Answering has m answer the problems it remembers from now on.
func (m *Memo) Answering() {
	m.mu.Lock()
	m.answering = true
	m.mu.Unlock()
}

// Solve implements Solver.
func (m *Memo) Solve(ctx context.Context, p Problem) (Answer, error) {
	key, ok := memoKey(p)
	if ok {
		m.mu.Lock()
		hit := m.answering && m.unsat[key]
		m.mu.Unlock()
		if hit {
			return Answer{Result: Unsat}, nil
		}
	}
	a, err := m.s.Solve(ctx, p)
	if err == nil && ok && a.Result == Unsat {
		m.mu.Lock()
		if !m.unsat[key] && m.size+len(key) <= memoBytes {
			m.unsat[key] = true
			m.size += len(key)
		}
		m.mu.Unlock()
	}
	return a, err
}

// Forget implements Forgetter: m's solver forgets (what m remembers
// stays: it is true whatever the solver holds).
func (m *Memo) Forget() { Forget(m.s) }

// Name is the name of m's solver, for progress displays.
func (m *Memo) Name() string {
	if n, ok := m.s.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

// memoKey returns the canonical form of p (Memo), and false when p is
// too small to remember or has an empty range.
func memoKey(p Problem) (string, bool) {
	atoms := 0
	for range Atoms(p.F) {
		atoms++
		if atoms >= memoAtoms {
			break
		}
	}
	if atoms < memoAtoms {
		return "", false
	}
	for _, b := range p.Bounds {
		if !b.NoLo && !b.NoHi && b.Lo > b.Hi {
			return "", false
		}
	}
	e := memoEncoder{names: map[Var]uint64{}}
	e.formula(p.F)
	if e.unknown {
		return "", false
	}
	// The ranges of the variables F reads, by their new names, in one
	// order whatever the order of p.Bounds.
	var ranges [][]byte
	for _, b := range p.Bounds {
		name, read := e.names[b.Var]
		if !read {
			continue
		}
		var r []byte
		r = binary.AppendUvarint(r, name)
		r = appendBound(r, b)
		ranges = append(ranges, r)
	}
	slices.SortFunc(ranges, func(a, b []byte) int { return slices.Compare(a, b) })
	out := e.buf
	out = binary.AppendUvarint(out, uint64(len(ranges)))
	for _, r := range ranges {
		out = append(out, r...)
	}
	return string(out), true
}

func appendBound(out []byte, b Bound) []byte {
	flags := byte(0)
	if b.NoLo {
		flags |= 1
	} else {
		out = binary.AppendVarint(out, b.Lo)
	}
	if b.NoHi {
		flags |= 2
	} else {
		out = binary.AppendVarint(out, b.Hi)
	}
	return append(out, flags)
}

// memoEncoder writes a formula as bytes, each variable by the order of
// its first occurrence (names); every node is a tag and a length or a
// fixed layout, so that the bytes read back one way only.
type memoEncoder struct {
	buf   []byte
	names map[Var]uint64
	// unknown says that a node of no kind above was met: the form
	// would not tell such problems apart.
	unknown bool
}

const (
	memoFalse byte = iota
	memoTrue
	memoCmp
	memoNot
	memoAnd
	memoOr
	memoExists
)

func (e *memoEncoder) name(v Var) uint64 {
	n, ok := e.names[v]
	if !ok {
		n = uint64(len(e.names))
		e.names[v] = n
	}
	return n
}

func (e *memoEncoder) formula(f Formula) {
	switch f := f.(type) {
	case Bool:
		if f {
			e.buf = append(e.buf, memoTrue)
		} else {
			e.buf = append(e.buf, memoFalse)
		}
	case Cmp:
		e.buf = append(e.buf, memoCmp, byte(f.Op))
		e.buf = binary.AppendUvarint(e.buf, uint64(len(f.T.Monos)))
		for _, mono := range f.T.Monos {
			e.buf = binary.AppendUvarint(e.buf, e.name(mono.Var))
			e.buf = binary.AppendVarint(e.buf, mono.Coef)
		}
		e.buf = binary.AppendVarint(e.buf, f.T.Const)
	case Not:
		e.buf = append(e.buf, memoNot)
		e.formula(f.F)
	case And:
		e.buf = append(e.buf, memoAnd)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(f)))
		for _, g := range f {
			e.formula(g)
		}
	case Or:
		e.buf = append(e.buf, memoOr)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(f)))
		for _, g := range f {
			e.formula(g)
		}
	case Exists:
		e.buf = append(e.buf, memoExists)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(f.Vars)))
		for _, b := range f.Vars {
			e.buf = binary.AppendUvarint(e.buf, e.name(b.Var))
			e.buf = appendBound(e.buf, b)
		}
		e.formula(f.Body)
	default:
		e.unknown = true
	}
}
