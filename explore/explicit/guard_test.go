package explicit

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/vsym/vsym/counterabs"
	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/internal/testsupport"
	"github.com/vsym/vsym/presburger"
)

func randFormula(r *rand.Rand, nvars, depth int) presburger.Formula {
	if depth == 0 || r.Intn(3) == 0 {
		switch r.Intn(8) {
		case 0:
			return presburger.Bool(r.Intn(2) == 0)
		}
		var t presburger.Term
		for k := 0; k < 1+r.Intn(3); k++ {
			t = t.Add(presburger.VarTerm(presburger.Var(r.Intn(nvars))).Scale(int64(r.Intn(7) - 3)))
		}
		t = t.Add(presburger.ConstTerm(int64(r.Intn(9) - 4)))
		// Build Cmp directly so constant terms stay atoms too.
		return presburger.Cmp{Op: presburger.Op(r.Intn(6)), T: t}
	}
	switch r.Intn(5) {
	case 0:
		return presburger.Not{F: randFormula(r, nvars, depth-1)}
	case 1:
		return presburger.And{randFormula(r, nvars, depth-1), randFormula(r, nvars, depth-1), randFormula(r, nvars, depth-1)}
	case 2:
		return presburger.Or{randFormula(r, nvars, depth-1), randFormula(r, nvars, depth-1)}
	case 3:
		// A bounded quantifier over a fresh variable, read in the body.
		v := presburger.Var(nvars + r.Intn(2))
		body := presburger.Conj(randFormula(r, nvars, depth-1),
			presburger.Compare(presburger.VarTerm(v), presburger.Le, presburger.VarTerm(presburger.Var(r.Intn(nvars)))))
		return presburger.Exists{Vars: []presburger.Bound{{Var: v, Lo: 0, Hi: int64(r.Intn(3))}}, Body: body}
	}
	return presburger.And{}
}

// TestCompiledGuards compares the compiled evaluator with presburger.Eval
// on random formulas (all connectives, every comparison, constants,
// quantifiers) and random valuations.
func TestCompiledGuards(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	const nvars = 4
	checked := 0
	for i := 0; i < 2000; i++ {
		f := randFormula(r, nvars, 3)
		g, err := compileGuard(f, nvars)
		if err != nil {
			t.Fatalf("%s: %v", presburger.Format(f, nil2), err)
		}
		v := make([]int64, nvars)
		for k := 0; k < 20; k++ {
			for j := range v {
				v[j] = int64(r.Intn(6))
			}
			want := presburger.Eval(f, func(x presburger.Var) int64 { return v[x] })
			if got := g.eval(v); got != want {
				t.Fatalf("%s at %v: compiled %v, Eval %v", presburger.Format(f, nil2), v, got, want)
			}
			checked++
		}
	}
	if _, err := compileGuard(presburger.Compare(presburger.VarTerm(9), presburger.Eq, presburger.ConstTerm(0)), 3); err == nil {
		t.Error("a variable outside the counters compiled")
	}
	t.Logf("%d evaluations", checked)
}

// TestCompiledGuardsAtTheLimits compares the compiled evaluator with an
// exact evaluation in math/big on atoms at vsym's limits: up to 24
// monomials with coefficients and values near ±1e9 (gsst.MaxConstant,
// gsst.MaxValue), whose sums leave int64. Both paths of the evaluator
// (the int64 sum and the exact sign of a wide atom) must be met.
func TestCompiledGuardsAtTheLimits(t *testing.T) {
	r := rand.New(rand.NewSource(27))
	near := func() int64 {
		switch r.Intn(4) {
		case 0:
			return int64(r.Intn(7) - 3)
		case 1:
			return gsst.MaxConstant - int64(r.Intn(3))
		case 2:
			return -gsst.MaxConstant + int64(r.Intn(3))
		}
		return r.Int63n(2*gsst.MaxConstant+1) - gsst.MaxConstant
	}
	wide, narrow := 0, 0
	for i := 0; i < 3000; i++ {
		nvars := 1 + r.Intn(24)
		var tm presburger.Term
		for v := 0; v < nvars; v++ {
			if c := near(); c != 0 {
				tm.Monos = append(tm.Monos, presburger.Mono{Var: presburger.Var(v), Coef: c})
			}
		}
		tm.Const = near()
		op := presburger.Op(r.Intn(6))
		g, err := compileGuard(presburger.Cmp{Op: op, T: tm}, nvars)
		if err != nil {
			t.Fatal(err)
		}
		if g.nodes[0].wide != nil {
			wide++
		} else {
			narrow++
		}
		v := make([]int64, nvars)
		for k := 0; k < 10; k++ {
			exact := big.NewInt(tm.Const)
			for j := range v {
				v[j] = near()
			}
			for _, m := range tm.Monos {
				exact.Add(exact, new(big.Int).Mul(big.NewInt(m.Coef), big.NewInt(v[m.Var])))
			}
			if got, want := g.eval(v), op.Holds(int64(exact.Sign())); got != want {
				t.Fatalf("%s %s 0 at %v (exact value %s): compiled %v", tm.Format(nil2), op, v, exact, got)
			}
		}
	}
	if wide == 0 || narrow == 0 {
		t.Errorf("wide atoms %d, narrow %d: both paths must be met", wide, narrow)
	}
	t.Logf("%d wide atoms, %d narrow", wide, narrow)
}

func nil2(v presburger.Var) string { return fmt.Sprintf("v%d", v) }

// TestStoreRandom inserts random keys of one and several words, against
// a map.
func TestStoreRandom(t *testing.T) {
	for _, w := range []int{1, 2, 3} {
		r := rand.New(rand.NewSource(int64(w)))
		s := newStore(w)
		ref := map[string]int{}
		k := make([]uint64, w)
		for i := 0; i < 200000; i++ {
			for j := range k {
				k[j] = uint64(r.Intn(300000)) << uint(j*5)
			}
			id := fmt.Sprint(k)
			got, added := s.insert(k)
			want, ok := ref[id]
			if !ok {
				want = len(ref)
				ref[id] = want
			}
			if got != want || added == ok {
				t.Fatalf("w=%d: insert %v = %d, %v; want %d, %v", w, k, got, added, want, !ok)
			}
			if s.lookup(k) != want || !equalKeys(s.key(want), k) {
				t.Fatalf("w=%d: lookup after insert failed", w)
			}
		}
		for j := range k {
			k[j] = 1 << 60
		}
		if s.lookup(k) != -1 {
			t.Errorf("w=%d: found a key never inserted", w)
		}
	}
}

// TestMultiWordKeys reruns part of the random cross-check with keys
// forced over several words (each field alone in a word), covering the
// multi-word paths of the engine.
func TestMultiWordKeys(t *testing.T) {
	testWordBits = 3
	defer func() { testWordBits = 0 }()
	// Half the systems go through the hash index, half through the rank
	// bitmap.
	r := rand.New(rand.NewSource(99))
	multi := map[bool]int{} // systems with multi-word keys, by testNoRank
	var st traceStats
	for k := 0; k < 60; k++ {
		sys := testsupport.RandomSystem(r, randomConfig)
		sys.Name = fmt.Sprintf("mw%d", k)
		testNoRank = k%2 == 0
		sp := testsupport.Unreduced(sys)
		gq := sp.Groups()
		if groupSpace(t, sys).w > 1 {
			multi[testNoRank]++
		}
		rep, err := checkConcrete(context.Background(), sys)
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, sys.Name, rep, gq, concreteKey)
		checkVerdicts(t, sys.Name, sys, rep, sp.Graph, gq, concreteKey, &st)
		am, brute := bruteModel(sys)
		arep, err := checkAbstract(context.Background(), am)
		if err != nil {
			t.Fatal(err)
		}
		ex := brute.Graph()
		checkCounts(t, sys.Name+" total", arep, ex, abstractKey)
		checkVerdicts(t, sys.Name+" total", sys, arep, ex, ex, abstractKey, &st)
	}
	testNoRank = false
	t.Logf("60 systems, each against the group quotient (group model) and the existential abstraction (brute-force total model); %d verdicts; multi-word keys: %d rank bitmap, %d hash index", st.Verdicts, multi[false], multi[true])
	if multi[false] < 15 || multi[true] < 15 {
		t.Errorf("too few systems had multi-word keys: %d through the rank bitmap, %d through the hash index", multi[false], multi[true])
	}
}

// TestRankBijection checks that the ranker numbers all vectors of a space
// 0..size-1 without collision, for one pool and for several.
func TestRankBijection(t *testing.T) {
	cases := []struct {
		name string
		sp   *space
	}{}
	for _, c := range [][2]int{{1, 5}, {2, 0}, {3, 4}, {4, 6}, {6, 3}} {
		k, s := c[0], c[1]
		idx := make([]int32, k)
		for i := range idx {
			idx[i] = int32(i)
		}
		cases = append(cases, struct {
			name string
			sp   *space
		}{fmt.Sprintf("k%d-s%d", k, s), &space{nvals: k, pools: []pool{{idx: idx, sum: int64(s)}}}})
	}
	sp := groupSpace(t, rwSystem(3, 2))
	cases = append(cases, struct {
		name string
		sp   *space
	}{"rw-3-2", sp})
	for _, sys := range []*gsst.System{testsupport.GRW(3, 2, 5), testsupport.GRW(2, 3, 4)} {
		sp := groupSpace(t, sys)
		ab, err := newSpace(grwModel(sys))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			sp   *space
		}{sys.Name, sp}, struct {
			name string
			sp   *space
		}{sys.Name + "-abstract", ab})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rk := newRanker(c.sp)
			if rk == nil {
				t.Fatal("no ranker")
			}
			// All valuations: the product of each pool's compositions.
			vals := [][]int64{make([]int64, c.sp.nvals)}
			for _, pl := range c.sp.pools {
				var next [][]int64
				for _, v := range vals {
					for _, comp := range testsupport.Compositions(int(pl.sum), len(pl.idx)) {
						w := append([]int64(nil), v...)
						for i, x := range comp {
							w[pl.idx[i]] = int64(x)
						}
						next = append(next, w)
					}
				}
				vals = next
			}
			if uint64(len(vals)) != rk.size {
				t.Fatalf("%d vectors, rank space %d", len(vals), rk.size)
			}
			seen := make([]bool, rk.size)
			for _, v := range vals {
				r := rk.rank(v)
				if r >= rk.size || seen[r] {
					t.Fatalf("rank %d of %v out of range or repeated", r, v)
				}
				seen[r] = true
				// Incremental successor ranks equal direct ones.
				for mi := range c.sp.moves {
					mv := &c.sp.moves[mi]
					if v[mv.src] == 0 {
						continue
					}
					rk.prepare(v)
					got := rk.succ(mi)
					w := append([]int64(nil), v...)
					mv.apply(w, +1)
					if want := rk.rank(w); got != want {
						t.Fatalf("move %d from %v: incremental rank %d, direct %d", mi, v, got, want)
					}
				}
			}
		})
	}
}

// groupSpace returns the space of the group-counter model of sys.
func groupSpace(t *testing.T, sys *gsst.System) *space {
	t.Helper()
	m, err := counterabs.BuildGroup(sys)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := newSpace(m)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
