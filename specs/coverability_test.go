package specs

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/presburger"
)

// The files of testdata/coverability are GSST translations of Petri nets
// with transfers of the mist suite (github.com/pierreganty/mist @1b1fd97,
// benchmarks/). TestCoverabilityTranslations checks each against the net
// it translates, restated below rule by rule as counter updates: for n
// = 1..4 processes, the reachable configurations of the translation,
// projected to total counters and shared values, are the net's reachable
// markings, and in each of them the one-step successors agree (steps
// that change nothing aside: the nets have a rule that does nothing).
//
// The GSST side is computed here directly on group counters from the
// parsed system (gsst.System), independently of counterabs and the
// engines: a mover leaves its state, every other process of a transfer's
// source moves to its target, the mover arrives; a rendezvous draws its
// parts from distinct processes.

// net is a counter net: variables, rules, the initial marking for n
// processes, and how a configuration of the translation reads as a
// marking (one linear combination of its total counters and shared
// variables per net variable).
type net struct {
	file  string
	vars  []string
	rules string // "guard -> update ;" as in mist: x >= k, x = k; x' = linear
	init  func(n int) map[string]int
	as    map[string]string // net variable -> "#State" or shared variable name
}

var nets = []net{{
	file: "berkeley.yaml",
	vars: []string{"invalid", "unowned", "nonexclusive", "exclusive"},
	rules: `
invalid >= 1 -> invalid' = invalid - 1, unowned' = unowned + 1, nonexclusive' = nonexclusive + exclusive, exclusive' = 0;
unowned >= 1 -> nonexclusive' = 0, unowned' = 0, invalid' = unowned + invalid + nonexclusive - 1, exclusive' = exclusive + 1;
nonexclusive >= 1 -> nonexclusive' = 0, unowned' = 0, invalid' = unowned + invalid + nonexclusive - 1, exclusive' = exclusive + 1;
invalid >= 1 -> invalid' = invalid + unowned + exclusive + nonexclusive - 1, unowned' = 0, nonexclusive' = 0, exclusive' = 1;
exclusive >= 1 -> invalid' = invalid + 1, exclusive' = exclusive - 1;
nonexclusive >= 1 -> invalid' = invalid + 1, nonexclusive' = nonexclusive - 1;
unowned >= 1 -> invalid' = invalid + 1, unowned' = unowned - 1;`,
	init: func(n int) map[string]int { return map[string]int{"invalid": n} },
	as:   map[string]string{"invalid": "#I", "unowned": "#U", "nonexclusive": "#N", "exclusive": "#E"},
}, {
	file: "illinois.yaml",
	vars: []string{"invalid", "dirty", "exclusive", "shared"},
	rules: `
invalid >= 1, dirty = 0, shared = 0, exclusive = 0 -> invalid' = invalid - 1, exclusive' = exclusive + 1;
invalid >= 1, dirty >= 1 -> invalid' = invalid - 1, dirty' = dirty - 1, shared' = shared + 2;
invalid >= 1, exclusive >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + 1, exclusive' = 0;
invalid >= 1, shared >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + 1, exclusive' = 0;
exclusive >= 1 -> dirty' = dirty + 1, exclusive' = exclusive - 1;
shared >= 1 -> shared' = 0, invalid' = invalid + shared - 1, dirty' = dirty + 1;
invalid >= 1 -> invalid' = exclusive + dirty + invalid + shared - 1, exclusive' = 0, shared' = 0, dirty' = 1;
dirty >= 1 -> invalid' = invalid + 1, dirty' = dirty - 1;
shared >= 1 -> invalid' = invalid + 1, shared' = shared - 1;
exclusive >= 1 -> invalid' = invalid + 1, exclusive' = exclusive - 1;`,
	init: func(n int) map[string]int { return map[string]int{"invalid": n} },
	as:   map[string]string{"invalid": "#I", "dirty": "#D", "exclusive": "#E", "shared": "#S"},
}, {
	file: "firefly.yaml",
	vars: []string{"invalid", "dirty", "exclusive", "shared"},
	rules: `
invalid >= 1, dirty = 0, shared = 0, exclusive = 0 -> invalid' = invalid - 1, exclusive' = exclusive + 1;
invalid >= 1, dirty >= 1 -> invalid' = invalid - 1, dirty' = dirty - 1, shared' = shared + 2;
invalid >= 1, shared >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + 1, exclusive' = 0;
invalid >= 1, exclusive >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + 1, exclusive' = 0;
exclusive >= 1 -> dirty' = dirty + 1, exclusive' = exclusive - 1;
shared = 1 -> exclusive' = exclusive + 1, shared' = shared - 1;
invalid >= 1, dirty = 0, shared = 0, exclusive = 0 -> invalid' = invalid - 1, dirty' = dirty + 1;
dirty >= 1 -> invalid' = invalid + 1, dirty' = dirty - 1;
shared >= 1 -> invalid' = invalid + 1, shared' = shared - 1;
exclusive >= 1 -> invalid' = invalid + 1, exclusive' = exclusive - 1;`,
	init: func(n int) map[string]int { return map[string]int{"invalid": n} },
	as:   map[string]string{"invalid": "#I", "dirty": "#D", "exclusive": "#E", "shared": "#S"},
}, {
	file: "dragon.yaml",
	vars: []string{"invalid", "dirty", "exclusive", "shared", "shared_dirty"},
	rules: `
invalid >= 1, dirty = 0, shared = 0, exclusive = 0, shared_dirty = 0 -> invalid' = invalid - 1, exclusive' = exclusive + 1;
invalid >= 1, shared_dirty >= 1 -> invalid' = invalid - 1, dirty' = 0, shared_dirty' = shared_dirty + dirty, shared' = shared + exclusive + 1, exclusive' = 0;
invalid >= 1, exclusive >= 1 -> invalid' = invalid - 1, dirty' = 0, shared_dirty' = shared_dirty + dirty, shared' = shared + exclusive + 1, exclusive' = 0;
invalid >= 1, shared >= 1 -> invalid' = invalid - 1, dirty' = 0, shared_dirty' = shared_dirty + dirty, shared' = shared + exclusive + 1, exclusive' = 0;
invalid >= 1, dirty >= 1 -> invalid' = invalid - 1, dirty' = 0, shared_dirty' = shared_dirty + dirty, shared' = shared + exclusive + 1, exclusive' = 0;
dirty >= 1 -> ;
exclusive >= 1 -> dirty' = dirty + 1, exclusive' = exclusive - 1;
shared_dirty = 1, shared = 0 -> shared_dirty' = shared_dirty - 1, dirty' = dirty + 1;
shared_dirty = 0, shared = 1 -> shared' = shared - 1, dirty' = dirty + 1;
shared_dirty >= 2 -> shared' = shared + shared_dirty - 1, shared_dirty' = 1;
shared >= 2 -> shared' = shared + shared_dirty - 1, shared_dirty' = 1;
shared_dirty >= 1, shared >= 1 -> shared' = shared + shared_dirty - 1, shared_dirty' = 1;
invalid >= 1, dirty = 0, shared = 0, exclusive = 0, shared_dirty = 0 -> invalid' = invalid - 1, dirty' = dirty + 1;
invalid >= 1, dirty >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + shared_dirty + dirty, exclusive' = 0, dirty' = 0, shared_dirty' = 1;
invalid >= 1, shared >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + shared_dirty + dirty, exclusive' = 0, dirty' = 0, shared_dirty' = 1;
invalid >= 1, exclusive >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + shared_dirty + dirty, exclusive' = 0, dirty' = 0, shared_dirty' = 1;
invalid >= 1, shared_dirty >= 1 -> invalid' = invalid - 1, shared' = shared + exclusive + shared_dirty + dirty, exclusive' = 0, dirty' = 0, shared_dirty' = 1;
dirty >= 1 -> invalid' = invalid + 1, dirty' = dirty - 1;
shared >= 1 -> invalid' = invalid + 1, shared' = shared - 1;
shared_dirty >= 1 -> invalid' = invalid + 1, shared_dirty' = shared_dirty - 1;
exclusive >= 1 -> invalid' = invalid + 1, exclusive' = exclusive - 1;`,
	init: func(n int) map[string]int { return map[string]int{"invalid": n} },
	as: map[string]string{"invalid": "#I", "dirty": "#D", "exclusive": "#E", "shared": "#S",
		"shared_dirty": "#SD"},
}, {
	file: "moesi.yaml",
	vars: []string{"i1", "i2", "lock", "unlock", "invalid", "modified", "shared", "owned", "exclusive"},
	rules: `
invalid >= 1, unlock >= 0 -> invalid' = invalid - 1, shared' = shared + exclusive + 1, exclusive' = 0, owned' = owned + modified, modified' = 0;
exclusive >= 1, unlock >= 1 -> exclusive' = exclusive - 1, modified' = modified + 1;
shared >= 1, unlock >= 1 -> shared' = shared - 1, i1' = i1 + 1, unlock' = unlock - 1, lock' = lock + 1;
owned >= 1, unlock >= 1 -> owned' = owned - 1, i1' = i1 + 1, unlock' = unlock - 1, lock' = lock + 1;
i1 >= 1, lock >= 1 -> i1' = i1 - 1, invalid' = invalid + owned + modified + exclusive + shared, shared' = 0, owned' = 0, exclusive' = 1, modified' = 0, lock' = lock - 1, unlock' = unlock + 1;
invalid >= 1, unlock >= 1 -> invalid' = invalid - 1, i2' = i2 + 1, unlock' = unlock - 1, lock' = lock + 1;
i2 >= 1, lock >= 1 -> i2' = i2 - 1, invalid' = invalid + owned + modified + exclusive + shared, shared' = 0, owned' = 0, exclusive' = 1, modified' = 0, lock' = lock - 1, unlock' = unlock + 1;
modified >= 1, unlock >= 1 -> invalid' = invalid + 1, modified' = modified - 1;
shared >= 1, unlock >= 1 -> shared' = shared - 1, invalid' = invalid + 1;
exclusive >= 1, unlock >= 1 -> exclusive' = exclusive - 1, invalid' = invalid + 1;
owned >= 1, unlock >= 1 -> owned' = owned - 1, invalid' = invalid + 1;`,
	init: func(n int) map[string]int { return map[string]int{"invalid": n, "unlock": 1} },
	as: map[string]string{"i1": "#I1", "i2": "#I2", "lock": "locked", "unlock": "1 - locked",
		"invalid": "#I", "modified": "#M", "shared": "#S", "owned": "#O", "exclusive": "#E"},
}, {
	file: "german.yaml",
	vars: []string{"Idle", "ServeS", "ServeE", "GrantS", "GrantE", "ex", "notex", "Null", "WaitS", "WaitE", "Shared", "Exclusive"},
	rules: `
Idle >= 1, Null >= 1 -> Idle' = Idle - 1, ServeS' = ServeS + 1, Null' = Null - 1, WaitS' = WaitS + 1;
ServeS >= 1, ex >= 1, Exclusive >= 1 -> ServeS' = ServeS - 1, GrantS' = GrantS + 1, ex' = ex - 1, notex' = notex + 1, Exclusive' = Exclusive - 1, Null' = Null + 1;
ServeE >= 1 -> ServeE' = ServeE - 1, GrantE' = GrantE + 1, Null' = Null + Shared + Exclusive, Shared' = 0, Exclusive' = 0;
ServeS >= 1, notex >= 1 -> ServeS' = ServeS - 1, GrantS' = GrantS + 1;
GrantS >= 1, WaitS >= 1 -> GrantS' = GrantS - 1, Idle' = Idle + 1, WaitS' = WaitS - 1, Shared' = Shared + 1;
Idle >= 1, Null >= 1 -> Idle' = Idle - 1, ServeE' = ServeE + 1, Null' = Null - 1, WaitE' = WaitE + 1;
Idle >= 1, Shared >= 1 -> Idle' = Idle - 1, ServeE' = ServeE + 1, Shared' = Shared - 1, WaitE' = WaitE + 1;
GrantE >= 1, WaitE >= 1 -> GrantE' = GrantE - 1, Idle' = Idle + 1, WaitE' = WaitE - 1, Exclusive' = Exclusive + 1, ex' = ex + notex, notex' = 0;`,
	init: func(n int) map[string]int { return map[string]int{"Null": n, "Idle": 1, "notex": 1} },
	as: map[string]string{"Idle": "#Idle", "ServeS": "#ServeS", "ServeE": "#ServeE", "GrantS": "#GrantS",
		"GrantE": "#GrantE", "ex": "ex", "notex": "1 - ex", "Null": "#Invalid", "WaitS": "#WaitS",
		"WaitE": "#WaitE", "Shared": "#Shared", "Exclusive": "#Exclusive"},
}, {
	file: "csm.yaml",
	vars: []string{"Think", "WaitC", "UseC", "Stopped", "WaitD", "UseD", "IdleD", "BusyD", "IdleC", "BusyC", "Pbusy", "Noint", "Int"},
	rules: `
Think >= 1 -> Think' = Think - 1, WaitC' = WaitC + 1;
WaitC >= 1, IdleC >= 1 -> WaitC' = WaitC - 1, UseC' = UseC + 1, IdleC' = IdleC - 1, BusyC' = BusyC + 1;
UseC >= 1, BusyC >= 1 -> BusyC' = BusyC - 1, IdleC' = IdleC + 1, UseC' = UseC - 1, Think' = Think + 1;
UseC >= 1, BusyC >= 1 -> BusyC' = BusyC - 1, IdleC' = IdleC + 1, UseC' = UseC - 1, WaitD' = WaitD + 1;
WaitD >= 1, IdleD >= 1 -> WaitD' = WaitD - 1, UseD' = UseD + 1, IdleD' = IdleD - 1, BusyD' = BusyD + 1;
UseD >= 1, BusyD >= 1 -> BusyD' = BusyD - 1, IdleD' = IdleD + 1, UseD' = UseD - 1, WaitC' = WaitC + 1;
Noint >= 1 -> Noint' = Noint - 1, Int' = Int + 1, Stopped' = UseC + Stopped, UseC' = 0, IdleC' = Pbusy + IdleC, Pbusy' = 0;
Int >= 1 -> UseC' = Stopped + UseC, Stopped' = 0, Noint' = Noint + 1, Int' = Int - 1, Pbusy' = IdleC + Pbusy, IdleC' = 0;`,
	init: func(n int) map[string]int {
		return map[string]int{"Think": n, "IdleC": 1, "IdleD": 1, "Noint": 1}
	},
	as: map[string]string{"Think": "#Think", "WaitC": "#WaitC", "UseC": "#UseC", "Stopped": "#Stopped",
		"WaitD": "#WaitD", "UseD": "#UseD", "IdleD": "idleD", "BusyD": "busyD", "IdleC": "idleC",
		"BusyC": "busyC", "Pbusy": "pbusyC", "Noint": "#Noint", "Int": "#Int"},
}}

// lin is a linear combination of named variables and a constant.
type lin struct {
	coef  map[string]int
	konst int
}

func (l lin) eval(val func(string) int) int {
	s := l.konst
	for v, c := range l.coef {
		s += c * val(v)
	}
	return s
}

// parseLin reads "a + b - 1", "1 - locked", "#S".
func parseLin(t *testing.T, s string) lin {
	l := lin{coef: map[string]int{}}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "-", " - "), "+", " + ")
	sign := 1
	for _, tok := range strings.Fields(s) {
		switch tok {
		case "+":
			sign = 1
		case "-":
			sign = -1
		default:
			if k, err := strconv.Atoi(tok); err == nil {
				l.konst += sign * k
			} else {
				l.coef[tok] += sign
			}
		}
	}
	return l
}

type netRule struct {
	guard  []func(m map[string]int) bool
	update map[string]lin
}

func parseNet(t *testing.T, nt net) []netRule {
	var out []netRule
	for _, r := range strings.Split(nt.rules, ";") {
		if strings.TrimSpace(r) == "" {
			continue
		}
		g, u, ok := strings.Cut(r, "->")
		if !ok {
			t.Fatalf("%s: rule %q has no ->", nt.file, r)
		}
		var nr netRule
		for c := range strings.SplitSeq(g, ",") {
			f := strings.Fields(c)
			if len(f) != 3 || !slices.Contains(nt.vars, f[0]) {
				t.Fatalf("%s: guard %q", nt.file, c)
			}
			k, err := strconv.Atoi(f[2])
			if err != nil {
				t.Fatal(err)
			}
			v, op := f[0], f[1]
			nr.guard = append(nr.guard, func(m map[string]int) bool {
				if op == "=" {
					return m[v] == k
				}
				return m[v] >= k
			})
		}
		nr.update = map[string]lin{}
		for a := range strings.SplitSeq(u, ",") {
			if strings.TrimSpace(a) == "" {
				continue
			}
			lhs, rhs, ok := strings.Cut(a, "=")
			v := strings.TrimSuffix(strings.TrimSpace(lhs), "'")
			if !ok || !slices.Contains(nt.vars, v) {
				t.Fatalf("%s: update %q", nt.file, a)
			}
			nr.update[v] = parseLin(t, rhs)
		}
		out = append(out, nr)
	}
	return out
}

// netSucc returns the successor markings of m (as keys).
func netSucc(nt net, rules []netRule, m map[string]int) []map[string]int {
	var out []map[string]int
	get := func(v string) int { return m[v] }
rules:
	for _, r := range rules {
		for _, g := range r.guard {
			if !g(m) {
				continue rules
			}
		}
		next := maps.Clone(m)
		for v, l := range r.update {
			next[v] = l.eval(get)
		}
		for _, v := range nt.vars {
			if next[v] < 0 {
				continue rules
			}
		}
		out = append(out, next)
	}
	return out
}

func markingKey(vars []string, m map[string]int) string {
	var b strings.Builder
	for _, v := range vars {
		fmt.Fprintf(&b, "%s=%d ", v, m[v])
	}
	return b.String()
}

// conf is a configuration of a GSST instance: group counters and shared
// values.
type conf struct {
	y      [][]int
	shared []int
}

func (c conf) key() string { return fmt.Sprint(c.y, c.shared) }

func (c conf) clone() conf {
	d := conf{shared: slices.Clone(c.shared)}
	for _, row := range c.y {
		d.y = append(d.y, slices.Clone(row))
	}
	return d
}

// assign applies an update read in val; false when a value leaves its
// variable's domain (the step is then not enabled).
func assign(sys *gsst.System, u gsst.Update, val func(presburger.Var) int64, shared []int) bool {
	for _, a := range u.Assign {
		j, ok := sys.SharedOf(a.Var)
		if !ok {
			panic("update of a non-shared variable")
		}
		k := int(a.Value.Eval(val))
		if !sys.Shared[j].Contains(k) {
			return false
		}
		shared[j] = k
	}
	return true
}

// inGroups reports whether group g may take a part or transfer restricted
// to groups (nil: every group).
func inGroups(groups []int, g int) bool { return groups == nil || slices.Contains(groups, g) }

// gsstSucc returns the successors of c in sys, computed on processes
// counted per group.
func gsstSucc(sys *gsst.System, c conf) []conf {
	var out []conf
	val := sys.Valuation(c.y, c.shared)
	for i := range sys.Transitions {
		t := &sys.Transitions[i]
		for g := range sys.Groups {
			b := t.BlockOf(g)
			if b == nil || c.y[g][t.From] < 1 || !presburger.Eval(b.Guard, val) {
				continue
			}
			d := c.clone()
			if !assign(sys, b.Update, val, d.shared) {
				continue
			}
			d.y[g][t.From]-- // the mover leaves; the others of each source move
			moved := make([][]int, len(t.Broadcast))
			for k, tr := range t.Broadcast {
				moved[k] = make([]int, len(sys.Groups))
				for h := range sys.Groups {
					if inGroups(tr.Groups, h) {
						moved[k][h] = d.y[h][tr.From]
					}
				}
			}
			for k, tr := range t.Broadcast {
				for h := range sys.Groups {
					d.y[h][tr.From] -= moved[k][h]
				}
			}
			for k, tr := range t.Broadcast {
				for h := range sys.Groups {
					d.y[h][tr.To] += moved[k][h]
				}
			}
			d.y[g][t.To]++ // the mover arrives
			out = append(out, d)
		}
	}
	for i := range sys.Rendezvous {
		r := &sys.Rendezvous[i]
		if !presburger.Eval(r.Guard, val) {
			continue
		}
		// every choice of a group for each part, with distinct processes
		choice := make([]int, len(r.Parts))
		var rec func(p int)
		rec = func(p int) {
			if p == len(r.Parts) {
				d := c.clone()
				for q, part := range r.Parts {
					d.y[choice[q]][part.From]--
				}
				for _, row := range d.y {
					if slices.Min(row) < 0 {
						return
					}
				}
				if !assign(sys, r.Update, val, d.shared) {
					return
				}
				for q, part := range r.Parts {
					d.y[choice[q]][part.To]++
				}
				out = append(out, d)
				return
			}
			for g := range sys.Groups {
				if inGroups(r.Parts[p].Groups, g) {
					choice[p] = g
					rec(p + 1)
				}
			}
		}
		rec(0)
	}
	return out
}

func TestCoverabilityTranslations(t *testing.T) {
	for _, nt := range nets {
		t.Run(nt.file, func(t *testing.T) {
			rules := parseNet(t, nt)
			fam, err := gsst.Load(filepath.Join("..", "testdata", "coverability", nt.file))
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= 4; n++ {
				sizes := make([]int, len(fam.Groups))
				for g, gr := range fam.Groups {
					sizes[g] = gr.Size // the fixed groups (German's home node) keep their size
					if gr.Ranged {
						sizes[g] = n
					}
				}
				sys, err := fam.Instantiate(sizes)
				if err != nil {
					t.Fatal(err)
				}
				// marking reads a configuration as a net marking.
				reads := map[string]lin{}
				for v, e := range nt.as {
					reads[v] = parseLin(t, e)
				}
				marking := func(c conf) map[string]int {
					get := func(name string) int {
						if s, ok := strings.CutPrefix(name, "#"); ok {
							k := slices.Index(sys.States, s)
							if k < 0 {
								t.Fatalf("no state %s", s)
							}
							sum := 0
							for g := range c.y {
								sum += c.y[g][k]
							}
							return sum
						}
						for j, v := range sys.Shared {
							if v.Name == name {
								return c.shared[j]
							}
						}
						t.Fatalf("no shared variable %s", name)
						return 0
					}
					m := map[string]int{}
					for _, v := range nt.vars {
						m[v] = reads[v].eval(get)
					}
					return m
				}
				init := conf{y: sys.Init}
				for _, v := range sys.Shared {
					init.shared = append(init.shared, v.Init)
				}
				init = init.clone()
				if got, want := markingKey(nt.vars, marking(init)), markingKey(nt.vars, nt.init(n)); got != want {
					t.Fatalf("n=%d: initial configuration reads as %s, the net starts in %s", n, got, want)
				}
				// Explore the translation; every configuration's successors,
				// read as markings, must be the net's successors of its
				// marking.
				seen := map[string]bool{init.key(): true}
				marks := map[string]bool{}
				todo := []conf{init}
				for len(todo) > 0 {
					c := todo[len(todo)-1]
					todo = todo[:len(todo)-1]
					m := marking(c)
					mk := markingKey(nt.vars, m)
					marks[mk] = true
					var fromNet, fromGSST []string
					for _, s := range netSucc(nt, rules, m) {
						if k := markingKey(nt.vars, s); k != mk {
							fromNet = append(fromNet, k)
						}
					}
					for _, d := range gsstSucc(sys, c) {
						if k := markingKey(nt.vars, marking(d)); k != mk {
							fromGSST = append(fromGSST, k)
						}
						if !seen[d.key()] {
							seen[d.key()] = true
							todo = append(todo, d)
						}
					}
					slices.Sort(fromNet)
					slices.Sort(fromGSST)
					if !slices.Equal(slices.Compact(fromNet), slices.Compact(fromGSST)) {
						t.Fatalf("n=%d, at %s: the net's successors\n  %v\nthe translation's\n  %v", n, mk, fromNet, fromGSST)
					}
				}
				// and the net reaches no other marking
				netSeen := map[string]bool{}
				var walk func(m map[string]int)
				walk = func(m map[string]int) {
					k := markingKey(nt.vars, m)
					if netSeen[k] {
						return
					}
					netSeen[k] = true
					for _, s := range netSucc(nt, rules, m) {
						walk(s)
					}
				}
				walk(nt.init(n))
				if !maps.Equal(netSeen, marks) {
					t.Fatalf("n=%d: the net reaches %d markings, the translation %d", n, len(netSeen), len(marks))
				}
				if len(marks) < 3 {
					t.Fatalf("n=%d: only %d markings: the sample is trivial", n, len(marks))
				}
			}
		})
	}
}
