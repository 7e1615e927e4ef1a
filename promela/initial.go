package promela

import (
	"fmt"
	"strings"

	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/gsst"
)

// Initial sets (gsst/initial.go) in Promela. Promela starts every
// variable at one value, so a system with several initial
// configurations starts in a state of its own, before any, and its
// first step chooses one: the counter model's process takes one d_step
// per initial state of the model, setting every counter and shared
// variable; the concrete model's init starts each process of a spread
// group in one of its group's states and sets each shared variable with
// a range to one of its values, in one atomic sequence. Both end by
// setting the flag started, which nothing else writes. The ltl blocks
// skip the states before it: each formula f becomes
//
//	!started U (started && (f))
//
// which holds on a path exactly when f holds on its suffix from the
// first state where started is set, the chosen initial configuration
// (started never falls again). A universal property then holds exactly
// when pan finds no path from any initial configuration that violates
// it; an existential one, which holds when every initial configuration
// has a witness, is not exported. The wrapper keeps a safety formula a
// safety formula and uses no X, so pan's partial-order reduction stays
// sound.

// maxPromelaStarts bounds the initial states the counter model lists, one
// d_step each.
const maxPromelaStarts = 4096

// startedLTL wraps the formula of every exported claim so that it is
// read from the first state where started holds, and skips the claims
// that become too long for Spin and the existential ones: a property
// holds when it holds in every initial configuration, so an existential
// one needs a witness from each, and pan's error is a path from one.
func startedLTL(claims []Claim, started string) {
	for i := range claims {
		c := &claims[i]
		if !c.Exported() {
			continue
		}
		if c.Existential {
			c.Name, c.LTL, c.Existential = "", "", false
			c.Skipped = "it is existential, and the system has several initial configurations: it holds when each has a witness, and pan's error would be a witness from one of them (vsym explore and the NuSMV export check it)"
			continue
		}
		text := "!" + started + " U (" + started + " && (" + c.LTL + "))"
		if len(text) > maxLTL {
			c.Name, c.LTL = "", ""
			c.Skipped = fmt.Sprintf("its LTL formula, read from the chosen initial configuration, has %d characters, more than Spin's LTL translator accepts (this package emits at most %d)", len(text), maxLTL)
			continue
		}
		c.LTL = text
	}
}

// value writes value x of shared variable j as the model does.
func (sv *sharedVars) value(j, x int) string {
	v := &sv.sys.Shared[j]
	switch {
	case v.Bool:
		return fmt.Sprint(x == 1)
	case v.Values != nil:
		return sv.consts[j][x]
	}
	return fmt.Sprint(x)
}

// writeInitialHeader says how the model starts when it has several
// initial states.
func writeInitialHeader(w *writer, what, started string) {
	w.p(" *\n")
	w.wrapped("", "Several initial configurations (a group spread over several states, or a shared variable starting in a range): "+what+" The ltl formulas are read from there: each is !"+started+" U ("+started+" && f) for the property's formula f.")
}

// concreteStarts writes the statements of the concrete model's init
// that place the processes and choose the initial values when sys has
// several initial configurations: a shared variable with a range at one
// of its values; each process of a spread group in one of its states (a
// choice per process), the others in their states (place(g, p, s) puts
// process p, of group g, in state s, with its counters); started last.
func concreteStarts(sys *gsst.System, sv *sharedVars, place func(g, p, s int) string, started string) ([]string, error) {
	var out []string
	for j := range sys.Shared {
		v := &sys.Shared[j]
		if !v.InitSeveral() {
			continue
		}
		if v.InitHi-v.Init >= maxPromelaStarts {
			return nil, errkind.Errorf(errkind.Limit, "promela: shared variable %s starts at any of %d values; the export chooses among at most %d", v.Name, v.InitHi-v.Init+1, maxPromelaStarts)
		}
		var opts []string
		for x := v.Init; x <= v.InitHi; x++ {
			opts = append(opts, fmt.Sprintf("\t\t:: %s = %s", sv.name[j], sv.value(j, x)))
		}
		out = append(out, "\t\tif\n"+strings.Join(opts, "\n")+"\n\t\tfi")
	}
	p := 0
	for g := range sys.Groups {
		var over []int
		if sys.InitOver != nil {
			over = sys.InitOver[g]
		}
		if over == nil {
			for s := range sys.States {
				for c := 0; c < sys.Init[g][s]; c++ {
					out = append(out, "\t\t"+place(g, p, s))
					p++
				}
			}
			continue
		}
		for c := 0; c < sys.Groups[g].Size; c++ {
			var opts []string
			for _, s := range over {
				opts = append(opts, "\t\t:: "+place(g, p, s))
			}
			out = append(out, "\t\tif\n"+strings.Join(opts, "\n")+"\n\t\tfi")
			p++
		}
	}
	return append(out, "\t\t"+started+" = true"), nil
}
