package explicit

import "math/bits"

// store is the visited set: it numbers states 0, 1, 2, ... in insertion
// order (breadth-first order, so the numbers double as the BFS queue) and
// maps a key back to its number.
//
// Keys live in chunks of 1<<chunkBits states (w words each), so the key
// array never needs a copy that doubles its footprint. The index is an
// open-addressing table of uint32 entries with linear probing. Its size
// is not a power of two: a slot is chosen by multiplying the hash's high
// half by the size ("fast range"), which lets the table grow by a factor
// 1.5 and keep its load between 1/2 and 3/4, 5.3 to 8 bytes of index per
// state on top of 8*w bytes of key. An entry holds the state number + 1
// (0 = empty) in its low idxBits bits and, in the bits the table size
// leaves free, a tag of the key's hash, so most probes that meet another
// key reject it without reading the key.
//
// When the search marks visited states elsewhere (a bitmap over the rank
// space, see ranker), keys are pushed without the index, which is built
// once at the end at its final size (index).
type store struct {
	w       int
	chunks  [][]uint64
	n       int
	table   []uint32
	idxBits uint   // low bits of an entry: state number + 1
	tagMask uint32 // mask of the tag, in the high bits
}

const (
	chunkBits = 16
	chunkMask = 1<<chunkBits - 1
	// maxStored keeps state numbers + 1 inside uint32.
	maxStored = 1<<32 - 2
)

func newStore(w int) *store {
	s := &store{w: w}
	s.setTable(1024)
	return s
}

// setTable allocates an empty index of size slots and sets the entry
// layout: the number of slots bounds state numbers + 1.
func (s *store) setTable(size int) {
	s.table = make([]uint32, size)
	s.idxBits = uint(bits.Len(uint(size)))
	if s.idxBits >= 32 {
		s.idxBits, s.tagMask = 32, 0
	} else {
		s.tagMask = ^uint32(0) << s.idxBits
	}
}

// entry returns the table entry for state i with hash h.
func (s *store) entry(i int, h uint64) uint32 { return uint32(h)&s.tagMask | uint32(i+1) }

// tagMatch reports whether entry e may hold a key with hash h.
func (s *store) tagMatch(e uint32, h uint64) bool { return (e^uint32(h))&s.tagMask == 0 }

// number returns the state number in entry e.
func (s *store) number(e uint32) int {
	if s.idxBits == 32 {
		return int(e - 1)
	}
	return int(e&(1<<s.idxBits-1)) - 1
}

// bytes returns the memory held by the store.
func (s *store) bytes() int64 {
	b := int64(len(s.table)) * 4
	for _, c := range s.chunks {
		b += int64(cap(c)) * 8
	}
	return b
}

func mix(h uint64) uint64 {
	h ^= h >> 31
	h *= 0x9E3779B97F4A7C15
	h ^= h >> 29
	return h
}

func (s *store) hashKey(k []uint64) uint64 {
	h := uint64(0)
	for _, x := range k {
		h = mix(h ^ x)
	}
	return h
}

func (s *store) slotOf(h uint64) int {
	return int((h >> 32) * uint64(len(s.table)) >> 32)
}

// key1 returns the key of state i (one-word keys).
func (s *store) key1(i int) uint64 { return s.chunks[i>>chunkBits][i&chunkMask] }

// key returns the key of state i; the slice aliases the store.
func (s *store) key(i int) []uint64 {
	c := s.chunks[i>>chunkBits]
	o := (i & chunkMask) * s.w
	return c[o : o+s.w : o+s.w]
}

// appendKey stores key words for state number s.n.
func (s *store) appendKey(k []uint64) {
	ci := s.n >> chunkBits
	if ci == len(s.chunks) {
		s.chunks = append(s.chunks, make([]uint64, 0, 256*s.w))
	}
	c := s.chunks[ci]
	if len(c)+s.w > cap(c) {
		nc := 2 * cap(c)
		if max := (chunkMask + 1) * s.w; nc > max {
			nc = max
		}
		c2 := make([]uint64, len(c), nc)
		copy(c2, c)
		c = c2
	}
	s.chunks[ci] = append(c, k...)
	s.n++
}

func (s *store) appendKey1(k uint64) {
	ci := s.n >> chunkBits
	if ci == len(s.chunks) {
		s.chunks = append(s.chunks, make([]uint64, 0, 256))
	}
	c := s.chunks[ci]
	if len(c) == cap(c) {
		nc := 2 * cap(c)
		if nc > chunkMask+1 {
			nc = chunkMask + 1
		}
		c2 := make([]uint64, len(c), nc)
		copy(c2, c)
		c = c2
	}
	s.chunks[ci] = append(c, k)
	s.n++
}

func (s *store) needGrow() bool { return (s.n+1)*4 > len(s.table)*3 }

func (s *store) grow() { s.rehash(len(s.table) * 3 / 2) }

// rehash rebuilds the index with size slots.
func (s *store) rehash(size int) {
	s.setTable(size)
	for i := 0; i < s.n; i++ {
		var h uint64
		if s.w == 1 {
			h = mix(s.key1(i))
		} else {
			h = s.hashKey(s.key(i))
		}
		j := s.slotOf(h)
		for s.table[j] != 0 {
			if j++; j == len(s.table) {
				j = 0
			}
		}
		s.table[j] = s.entry(i, h)
	}
}

// index builds the index of pushed keys at a load of at most 3/4.
func (s *store) index() {
	size := s.n*4/3 + 2
	if size < 1024 {
		size = 1024
	}
	s.rehash(size)
}

// trim gives back the unused capacity of the last key chunk.
func (s *store) trim() {
	if len(s.chunks) == 0 {
		return
	}
	c := s.chunks[len(s.chunks)-1]
	if cap(c)-len(c) > 1024 {
		s.chunks[len(s.chunks)-1] = append([]uint64(nil), c...)
	}
}

// push1 and push append a key without indexing it (see index).
func (s *store) push1(k uint64) { s.appendKey1(k) }
func (s *store) push(k []uint64) {
	if s.w == 1 {
		s.appendKey1(k[0])
	} else {
		s.appendKey(k)
	}
}

// insert1 adds a one-word key; it returns the state number and whether
// the key is new.
func (s *store) insert1(k uint64) (int, bool) {
	if s.needGrow() {
		s.grow()
	}
	h := mix(k)
	j := s.slotOf(h)
	for {
		e := s.table[j]
		if e == 0 {
			s.table[j] = s.entry(s.n, h)
			s.appendKey1(k)
			return s.n - 1, true
		}
		if s.tagMatch(e, h) && s.key1(s.number(e)) == k {
			return s.number(e), false
		}
		if j++; j == len(s.table) {
			j = 0
		}
	}
}

// lookup1 returns the number of a one-word key, or -1.
func (s *store) lookup1(k uint64) int {
	h := mix(k)
	j := s.slotOf(h)
	for {
		e := s.table[j]
		if e == 0 {
			return -1
		}
		if s.tagMatch(e, h) && s.key1(s.number(e)) == k {
			return s.number(e)
		}
		if j++; j == len(s.table) {
			j = 0
		}
	}
}

func equalKeys(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// insert adds a key of s.w words (copied); it returns the state number
// and whether the key is new.
func (s *store) insert(k []uint64) (int, bool) {
	if s.w == 1 {
		return s.insert1(k[0])
	}
	if s.needGrow() {
		s.grow()
	}
	h := s.hashKey(k)
	j := s.slotOf(h)
	for {
		e := s.table[j]
		if e == 0 {
			s.table[j] = s.entry(s.n, h)
			s.appendKey(k)
			return s.n - 1, true
		}
		if s.tagMatch(e, h) && equalKeys(s.key(s.number(e)), k) {
			return s.number(e), false
		}
		if j++; j == len(s.table) {
			j = 0
		}
	}
}

// lookup returns the number of a key, or -1.
func (s *store) lookup(k []uint64) int {
	if s.w == 1 {
		return s.lookup1(k[0])
	}
	h := s.hashKey(k)
	j := s.slotOf(h)
	for {
		e := s.table[j]
		if e == 0 {
			return -1
		}
		if s.tagMatch(e, h) && equalKeys(s.key(s.number(e)), k) {
			return s.number(e)
		}
		if j++; j == len(s.table) {
			j = 0
		}
	}
}
