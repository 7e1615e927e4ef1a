package promela

import (
	"strings"
	"sync"

	"github.com/vsym/vsym/internal/emit"
)

// reserved holds the words that no identifier of an emitted model may be.
// Promela's own keywords and the words its ltl blocks read as operators
// (Spin 6 lexer), the C keywords (Promela names become C names in the
// pan.c that spin -a writes), the macros gcc predefines in the gnu99 mode
// Spin runs its preprocessor in ("linux" and "unix" would silently turn
// into 1, and a few other systems define more), and the names pan.c
// defines for its own C-code support.
// It is built at its first use, not when the program starts.
var reserved = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(`
		active assert atomic bit bool break byte c_code c_decl c_expr c_state
		c_track D_proctype do chan else empty enabled eval false fi for full
		get_priority goto hidden if in init inline int len local ltl mtype
		nempty never nfull notrace np_ od of pc_value pid printf printm
		priority proctype provided return run d_step select set_priority
		short skip timeout trace true show typedef unless unsigned xr xs
		U V W X always eventually until stronguntil weakuntil release next
		implies equivalent
		auto case char const continue default double enum extern float long
		register restrict signed sizeof static struct switch union void
		volatile while inline _Bool _Complex _Imaginary asm typeof
		linux unix i386 sun sparc mips vax hp9000 hppa
		now uchar c_stack c_unstack c_update c_revert c_globals c_locals
		c_chandump c_print main`) {
		words[w] = true
	}
	return words
})

// IsReserved reports whether s is a word this package never emits as an
// identifier (see reserved).
func IsReserved(s string) bool { return reserved()[s] }

// IsIdent reports whether s is an identifier this package may emit: it
// matches [A-Za-z][A-Za-z0-9_]* and is not reserved. Promela also allows
// a leading '_', but Spin and pan.c keep such names for themselves (_pid,
// _nr_pr, _last, ...), so this package never starts a name with one.
func IsIdent(s string) bool {
	if s == "" || reserved()[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case (c == '_' || '0' <= c && c <= '9') && i > 0:
		default:
			return false
		}
	}
	return true
}

// sanitize turns s into something shaped like an identifier: every
// character outside [A-Za-z0-9_] becomes '_', and a name that does not
// start with a letter (or is empty) gets a "v" in front.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	out := string(b)
	if out == "" || !('a' <= out[0] && out[0] <= 'z' || 'A' <= out[0] && out[0] <= 'Z') {
		out = "v" + out
	}
	return out
}

// namer hands out Promela identifiers. Promela keeps variables, mtype
// constants, proctypes and ltl names in one scope, and the preprocessor
// replaces a macro's name everywhere, ltl names included, so one
// namespace for all of them is the only safe choice.
type namer struct{ *emit.Namer }

func newNamer() *namer { return &namer{emit.NewNamer(IsReserved, sanitize)} }

// fresh returns base sanitized, or, when that is reserved or taken, the
// first free one of base_, base_2, base_3, ... (emit.Namer).
func (n *namer) fresh(base string) string { return n.Fresh(base) }
