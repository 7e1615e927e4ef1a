// Added by vsym (not in upstream rudd): see README.vsym.md.

package rudd

import "strconv"

// interruptEvery is the number of node constructions between two calls of
// the interrupt function: a power of two, small enough that an operation
// stops within a millisecond or so, large enough that the call costs
// nothing measurable.
const interruptEvery = 1 << 12

// interruption is the panic value that unwinds an interrupted operation
// to its public entry point (see guard).
type interruption struct{ err error }

// SetInterrupt installs f, called every few thousand node constructions
// inside every operation (Apply, Not, Ite, Exist, AppEx, Replace and the
// functions built on them). When f returns an error, the operation under
// way stops: it returns nil and sets the error status of b, whose message
// contains f's error. Nodes built before the interruption stay valid; the
// caches only hold completed results. f == nil removes the hook.
func (b *BDD) SetInterrupt(f func() error) {
	b.interrupt = f
	b.ticks = 0
}

// tick is called for each node construction and calls the interrupt
// function every interruptEvery of them.
func (b *BDD) tick() {
	b.ticks++
	if b.ticks%interruptEvery != 0 {
		return
	}
	if err := b.interrupt(); err != nil {
		panic(interruption{err})
	}
}

// guard runs op, the recursive part of a public operation, and turns an
// interruption into the error status of b and the result -1 (which
// retnode maps to nil). Other panics pass through.
func (b *BDD) guard(op func() int) (res int) {
	if b.interrupt == nil {
		return op()
	}
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(interruption)
			if !ok {
				panic(r)
			}
			b.seterror("operation interrupted: %v", s.err)
			res = -1
		}
	}()
	return op()
}

// nodeString formats n for an error message; n may be nil, the result of a
// failed or interrupted operation (upstream dereferenced it and panicked).
func nodeString(n Node) string {
	if n == nil {
		return "nil"
	}
	return strconv.Itoa(*n)
}

// Poll calls the interrupt function now, as node constructions do every
// few thousand, for work between operations that builds few nodes (the
// encoding of a linear constraint by a recursion whose results are
// mostly constants). When it returns an error, Poll sets the error status
// of b and returns true; so does Poll on a BDD already in error.
func (b *BDD) Poll() bool {
	if b.error == nil && b.interrupt != nil {
		if err := b.interrupt(); err != nil {
			b.seterror("operation interrupted: %v", err)
		}
	}
	return b.error != nil
}

// Collectfrom is a configuration option (function). Used as a parameter in
// New it makes a full table smaller than size nodes double (up to size)
// instead of collecting garbage; from size on, a full table is collected
// and grown as without it. With a small Nodesize, a BDD that never needs
// more nodes than size then builds exactly the nodes, at the same
// indices, as one whose table starts at size, without making and
// clearing a large table and its caches first: no node is collected
// before the table holds size nodes either way. Neither Maxnodesize nor
// Maxnodeincrease bounds the growth up to size.
func Collectfrom(size int) func(*configs) {
	return func(c *configs) {
		c.collectfrom = size
	}
}

// cachebase is the node count from which the operation caches are sized
// (Cacheratio percent of it) when the table has grown to n nodes: n
// itself from the collection size on, as upstream; below it, the caches
// have as many entries as the table, up to their size at the collection
// size. Each growth clears the caches, and at a quarter of a small table
// the results lost made up to a fifth more node constructions.
func (b *BDD) cachebase(n int) int {
	r := b.applycache.ratio
	if r <= 0 || n >= b.collectfrom {
		return n
	}
	if m := n * 100 / r; m < b.collectfrom {
		return m
	}
	return b.collectfrom
}
