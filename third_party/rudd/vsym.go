// Added by vsym (not in upstream rudd): see README.vsym.md.

package rudd

import (
	"runtime"
	"strconv"
	"weak"
)

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
	b.operations++
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

// externals tracks the Nodes a table hands out (retnode), so that a
// garbage collection of the table keeps exactly the nodes of the Nodes
// the program can still reach. Upstream counted a node's references and
// had each Node's finalizer decrement the count, and a collection freed
// the nodes whose count was 0: whatever finalizers Go's collector had
// happened to run by then, and none for a Node the tiny allocator had
// packed with a live one. Which nodes a collection freed, and so the
// nodes produced afterwards (vsym's work budget), the table's growth and
// every index, changed from run to run with the Go collector's timing
// (BenchmarkGRWq50 peaked at 126,826 to 224,536 nodes over four runs).
//
// Here each Node is a handle of its own (16 bytes: the tiny allocator
// packs only smaller pointer-free objects), known to the table by a weak
// pointer. mark runs Go's collector to completion, after which a weak
// pointer is nil exactly when its handle was unreachable: which Nodes
// the program still reaches at a given point does not depend on timing,
// so neither does the collection, nor anything after it. A Go collection
// costs in proportion to the live Go heap; node tables are pointer-free
// and are not scanned.
type externals struct {
	refs []extref
}

// extref is one Node handed out and the node it points to.
type extref struct {
	p weak.Pointer[int]
	n int
}

// handle holds the node index a Node points to, padded to 16 bytes.
type handle struct {
	n int
	_ int
}

// add returns a new Node for node n. When the list is full, it first
// drops the Nodes Go's collector has found unreachable so far: which
// ones does not matter, since mark drops all of them.
func (x *externals) add(n int) Node {
	if len(x.refs) == cap(x.refs) && len(x.refs) >= 1<<10 {
		x.prune(nil)
		if len(x.refs) > cap(x.refs)/2 {
			x.refs = append(make([]extref, 0, 2*cap(x.refs)), x.refs...)
		}
	}
	h := &handle{n: n}
	x.refs = append(x.refs, extref{weak.Make(&h.n), n})
	return &h.n
}

// mark runs Go's collector to completion and calls markrec for the node
// of every Node still reachable.
func (x *externals) mark(markrec func(int)) {
	runtime.GC()
	x.prune(markrec)
}

// prune drops the Nodes whose weak pointer is nil and, when markrec is
// not nil, calls it for the node of each of the others.
func (x *externals) prune(markrec func(int)) {
	k := 0
	for _, r := range x.refs {
		if r.p.Value() == nil {
			continue
		}
		if markrec != nil {
			markrec(r.n)
		}
		x.refs[k] = r
		k++
	}
	clear(x.refs[k:])
	x.refs = x.refs[:k]
}

// collections tells a Hudd table's makenode whether the operation under
// way has collected garbage already: then a full table grows instead of
// collecting again. A collection that clears the operation caches (see
// cachemark) makes an operation that fills the table twice compute
// again what it had computed, fill the table again, and so on: with
// every unreachable node
// freed (externals), a backward breadth-first fixpoint on GR&W m=10 n=20
// in a table collecting from 1<<16 nodes ran past five minutes instead
// of three seconds. Upstream grew the table only when a collection left
// fewer than Minfreenodes percent free, which the Nodes not yet
// finalized made happen sooner, at random.
type collections struct {
	operations  int // public operations begun (guard)
	collectedIn int // the value of operations at the last collection
}

// cachemark marks, before a garbage collection of the node table, every
// node an entry of the operation caches names, so that the collection
// frees none of them and the caches stay valid: makenode keeps them
// instead of clearing them. Upstream cleared the caches at each
// collection; with every unreachable node freed (externals) the table
// stayed small and collected often, and a fixpoint computed again at
// each iteration what the cleared caches had held (a backward
// breadth-first fixpoint on GR&W m=10 n=20 produced 1,026,191 nodes,
// and 547,995 with the caches kept, against 736,403 upstream). From
// keepCachesBelow nodes on, a collection clears the caches as upstream
// did. A quantification's entries name its variable set's node in their
// id (see Exist and AppEx, operations.go); a replacement's id is a
// counter.
func (b *BDD) cachemark(markrec func(int)) {
	for _, e := range b.applycache.table {
		if e.a != -1 {
			markrec(e.a)
			markrec(e.b)
			markrec(e.res)
		}
	}
	for _, e := range b.itecache.table {
		if e.a != -1 {
			markrec(e.a)
			markrec(e.b)
			markrec(e.c)
			markrec(e.res)
		}
	}
	for _, e := range b.quantcache.table {
		if e.a != -1 {
			markrec(e.a)
			markrec(e.b)
			markrec(e.res)
			if e.c&7 == cacheidAPPEX {
				markrec(e.c >> 5)
			}
		}
	}
	for _, e := range b.appexcache.table {
		if e.a != -1 {
			markrec(e.a)
			markrec(e.b)
			markrec(e.res)
			markrec(e.c >> 2)
		}
	}
	for _, e := range b.replacecache.table {
		if e.a != -1 {
			markrec(e.a)
			markrec(e.res)
		}
	}
}

// keepCachesBelow is the table size from which a collection clears the
// operation caches instead of keeping the nodes they name (cachemark):
// in a large table, what they keep made the table grow further (ASR
// r=10 n=80 in vsym: a table of 4 million nodes and 750 MB of Go heap,
// against 1 million and 200 MB clearing them).
const keepCachesBelow = 1 << 20
