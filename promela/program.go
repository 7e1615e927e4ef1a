package promela

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vsym/vsym/ctl"
	"github.com/vsym/vsym/errkind"
	"github.com/vsym/vsym/presburger"
)

// Program is an emitted Promela model with what a caller needs to run
// Spin on it and read the answers.
type Program struct {
	Text string
	// Claims has one entry per property of the system, in the system's
	// order, exported or not.
	Claims []Claim
	// Concrete is true for the unreduced system, whose liveness claims are
	// meant to be checked under weak fairness (pan -a -f).
	Concrete bool
	// Processes is the number of processes of the system that a concrete
	// model starts (0 for a counter model).
	Processes int
}

// Claim says how one property of the system is exported.
type Claim struct {
	Property string // the property's name in the GSST file
	Text     string // its formula as written there
	// Name is the name of its ltl block (pan -N Name); "" when Skipped.
	Name string
	LTL  string // the formula of the ltl block
	// Existential is true when the property is existential (EF p, EG p,
	// E[p U q], ...): the ltl block is then its negation, and the
	// property holds iff pan finds an error, a path that is its witness.
	// A universal property holds iff pan finds none.
	Existential bool
	// Safety is true when every violation of the claim has a finite bad
	// prefix: pan finds it without the acceptance-cycle search (-a), and a
	// pan compiled with -DSAFETY suffices.
	Safety bool
	// Skipped says why the property has no ltl block: no LTL formula is
	// equivalent to it, or Spin cannot read the one there is.
	Skipped string
}

// Exported reports whether the property has an ltl block.
func (c *Claim) Exported() bool { return c.Skipped == "" }

// Holds turns pan's answer for the claim into the property's verdict:
// violated says whether pan reported an error (an assertion violated in
// the claim, or an acceptance cycle).
func (c *Claim) Holds(violated bool) bool { return violated == c.Existential }

// PanArgs returns the arguments of pan that check the claim: -N Name,
// with -a unless the claim is a safety property, and with -f (weak
// fairness) when fair is true and the claim is not a safety property
// (fairness changes nothing for safety claims).
func (c *Claim) PanArgs(fair bool) []string {
	var args []string
	if !c.Safety {
		args = append(args, "-a")
		if fair {
			args = append(args, "-f")
		}
	}
	return append(args, "-N", c.Name)
}

// SafetyOnly reports whether every exported claim is a safety property,
// so that pan may be compiled with -DSAFETY.
func (p *Program) SafetyOnly() bool {
	for i := range p.Claims {
		if p.Claims[i].Exported() && !p.Claims[i].Safety {
			return false
		}
	}
	return true
}

// CompileFlags returns the flags gcc needs to compile pan.c for the
// model's claims: -DSAFETY when every claim is a safety claim; for a
// concrete model with liveness claims and more processes than pan -f
// handles by default, -DNFAIR=N (nfair).
func (p *Program) CompileFlags() []string {
	if p.SafetyOnly() {
		return []string{"-DSAFETY"}
	}
	if n := nfair(p.Processes); p.Concrete && n > defaultNFAIR {
		return []string{fmt.Sprintf("-DNFAIR=%d", n)}
	}
	return nil
}

// defaultNFAIR is the NFAIR of a pan.c compiled without -DNFAIR.
const defaultNFAIR = 2

// nfair returns the smallest NFAIR with which pan -f runs a model of
// procs processes: pan stops with "too many processes -- current max is
// 4*NFAIR-2 procs" when the processes it counts (the system's, init and
// the never claim) reach that bound, which leaves 4*(NFAIR-1) processes
// to the system (measured with Spin 6.5.2 for 3 to 14 processes).
func nfair(procs int) int { return (procs+3)/4 + 1 }

// maxLTL bounds the length of an emitted ltl formula. Spin's LTL
// translator reads the formula, as Spin re-prints it with parentheses
// around every operation, into a buffer of about 2,000 characters (a
// longer one fails with "expected ')'"); our printing is never more than
// half as long as Spin's re-printing of the same formula needs.
const maxLTL = 1000

// property is a property to export: its formula over the variables that
// atom prints, and names.
type property struct {
	name, text string
	formula    ctl.Formula
}

// exportClaims decides, names and prints the claim of every property.
// reason writes formulas for the reasons given for skipped properties;
// atom prints a state formula's atom as a Promela expression.
func exportClaims(props []property, nm *namer, reason func(ctl.Formula) string, atom func(presburger.Formula) (frag, error)) ([]Claim, error) {
	tr := translator{text: reason}
	var out []Claim
	for _, p := range props {
		c := Claim{Property: p.name, Text: p.text}
		if err := ctl.Validate(p.formula); err != nil {
			return nil, errkind.Errorf(errkind.Internal, "promela: property %s: %w", p.name, err)
		}
		f, existential, why := tr.translate(p.formula)
		if f == nil {
			c.Skipped = "CTL formula with no equivalent LTL formula: " + why
			out = append(out, c)
			continue
		}
		text, err := printLTL(f, func(a presburger.Formula) (string, error) {
			x, err := atom(a)
			return x.s, err
		})
		var ov *overflowError
		switch {
		case errors.As(err, &ov):
			c.Skipped = ov.Error()
		case err != nil:
			return nil, errkind.Errorf(errkind.Internal, "promela: property %s: %w", p.name, err)
		case len(text) > maxLTL:
			c.Skipped = fmt.Sprintf("its LTL formula has %d characters, more than Spin's LTL translator accepts (this package emits at most %d)", len(text), maxLTL)
		default:
			c.Name, c.LTL, c.Existential, c.Safety = nm.fresh(p.name), text, existential, isSafety(f, true)
		}
		out = append(out, c)
	}
	return out, nil
}

// writer accumulates the text of a model.
type writer struct{ b strings.Builder }

func (w *writer) p(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

// wrapped writes text as comment lines of at most about 78 columns, the
// first starting with first and the others with as many spaces.
func (w *writer) wrapped(first, text string) {
	indent := strings.Repeat(" ", len(first))
	line := " * " + first
	fresh := true
	for _, word := range strings.Fields(comment(text)) {
		if !fresh && len(line)+1+len(word) > 78 {
			w.p("%s\n", line)
			line, fresh = " * "+indent, true
		}
		if !fresh {
			line += " "
		}
		line += word
		fresh = false
	}
	w.p("%s\n", line)
}

// writeClaimHeader lists the properties in the header comment: for each
// the ltl name, how to run pan and how to read its answer, or why it is
// not exported. fair says whether liveness claims are meant for -f.
func writeClaimHeader(w *writer, claims []Claim, fair bool) {
	if len(claims) == 0 {
		return
	}
	w.p(" *\n * Properties (ltl block, GSST name and text; how to check; how to read pan):\n")
	const pad = "               "
	for i := range claims {
		c := &claims[i]
		if !c.Exported() {
			w.wrapped(fmt.Sprintf("  %-12s ", "-"), c.Property+": "+c.Text)
			w.wrapped(pad, "not exported: "+c.Skipped+".")
			continue
		}
		w.wrapped(fmt.Sprintf("  %-12s ", c.Name), c.Property+": "+c.Text)
		kind := "a liveness claim"
		if c.Safety {
			kind = "a safety claim"
		}
		w.wrapped(pad, fmt.Sprintf("./pan %s (%s)", strings.Join(c.PanArgs(fair), " "), kind))
		if c.Existential {
			w.wrapped(pad, "holds iff pan FINDS an error (errors: 1): the claim is the property's negation, and the trail is a witness")
		} else {
			w.wrapped(pad, "holds iff pan finds no error (errors: 0)")
		}
	}
}

// writeRunHeader says how to build and run pan on the model.
func writeRunHeader(w *writer, p *Program) {
	w.p(" *\n * To check with Spin 6 (see docs/promela.md):\n")
	w.p(" *   spin -a MODEL.pml\n")
	flags := p.CompileFlags()
	gcc := strings.Join(append(append([]string{"gcc", "-O2"}, flags...), "-o", "pan", "pan.c"), " ")
	switch {
	case p.SafetyOnly():
		w.p(" *   %s   (every claim is a safety claim)\n", gcc)
	case len(flags) > 0:
		w.p(" *   %s\n", gcc)
		w.wrapped("    ", fmt.Sprintf("(-a, for liveness claims, needs a pan without -DSAFETY; -f, with %d processes, needs %s)", p.Processes, flags[0]))
	default:
		w.p(" *   %s   (-a, for liveness claims, needs a pan without -DSAFETY)\n", gcc)
	}
	w.p(" *   ./pan ARGS   (ARGS as listed above for each property)\n")
	w.wrapped("", "pan searches 10000 steps deep by default: one that says \"max search depth too small\" has not searched everything, so rerun it with a larger -m (say -m1000000). One that says \"VECTORSZ too small\" wants pan.c recompiled with -DVECTORSZ=N as it suggests. -wN sets the hash table to 2^N slots; the default, -w24, takes 128 MB.")
}

// declType returns the smallest Promela integer type holding 0..max.
func declType(max int) string {
	switch {
	case max <= 255:
		return "byte"
	case max <= 32767:
		return "short"
	}
	return "int"
}

// overflowError reports an expression that could leave Spin's 32-bit int.
type overflowError struct{ bound string }

func (e *overflowError) Error() string {
	return fmt.Sprintf("a value or partial sum can reach %s, beyond the 32-bit int that Spin evaluates in", e.bound)
}

// Is makes an overflowError bad input (errkind.Input) wherever it
// surfaces.
func (e *overflowError) Is(target error) bool { return target == errkind.Input }

// unfair marks every claim skipped when the system has fairness
// constraints: the ltl blocks would quantify over every path, while
// vsym's (and NuSMV's) verdicts quantify over the fair paths only, so a
// claim would mean something else. vsym explore and the NuSMV export
// (JUSTICE) check such properties.
func unfair(claims []Claim, fair bool) []Claim {
	if !fair {
		return claims
	}
	for i := range claims {
		claims[i].Name, claims[i].LTL = "", ""
		claims[i].Skipped = "the spec has fairness constraints, which the Promela export does not carry (vsym explore and the NuSMV export check them)"
	}
	return claims
}
