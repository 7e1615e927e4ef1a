package nusmv

import (
	"strings"
	"sync"

	"github.com/vsym/vsym/internal/emit"
)

// reserved holds the words the NuSMV 2.6 lexer turns into keywords or
// operators, so that none of them can name a variable, define, constant
// or property. The list is that of the 2.6 scanner (input.l) plus a few
// words that other NuSMV releases and nuXmv reserve: an identifier that
// avoids them all is safe in every release we may meet. Case matters:
// "T" is reserved (the LTL "triggered" operator), "t" is not.
// It is built at its first use, not when the program starts.
var reserved = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(`
		MODULE process DEFINE MDEFINE VAR FUN FROZENVAR IVAR INIT TRANS INVAR
		SPEC CTLSPEC CTLGRADSPEC LTLSPEC PSLSPEC COMPUTE INVARSPEC NAME
		CONSTRAINT ITYPE CONSTANTS SIMPWFF NEXTWFF CTLWFF CTLGWFF LTLWFF
		PSLWFF COMPWFF COMPID IN FAIRNESS JUSTICE COMPASSION ISA ASSIGN
		array bool of boolean word1 word Word signed unsigned extend uwconst
		swconst resize sizeof toint count READ WRITE CONSTARRAY typeof
		EX AX EF AF EG AG E F O G H X Y Z A U S V T W R B BU EBF ABF EBG ABG
		MIN MAX FALSE TRUE case esac mod next init self union in notin abs
		min max xor xnor integer real clock floor pi ln exp sin cos tan pow
		asin acos atan sqrt sigma PRED PREDICATES MIRROR EXTERN IMPLEMENTS
		INPUT OUTPUT`) {
		words[w] = true
	}
	return words
})

// IsReserved reports whether s is a NuSMV keyword (or a word some NuSMV
// release reserves), which cannot be used as an identifier.
func IsReserved(s string) bool { return reserved()[s] }

// IsIdent reports whether s is an identifier this package may emit: it
// matches [A-Za-z_][A-Za-z0-9_]* and is not reserved. NuSMV also allows
// '$', '#' and '-' after the first character; we never emit them, since
// "x-1" would then read as one identifier rather than a subtraction.
func IsIdent(s string) bool {
	if s == "" || reserved()[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// sanitize turns s into something shaped like an identifier: every
// character outside [A-Za-z0-9_] becomes '_', and a leading digit (or an
// empty s) gets a '_' in front.
func sanitize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || '0' <= out[0] && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// namer hands out NuSMV identifiers. NuSMV keeps variables, defines,
// symbolic constants and property names apart only partly, so one
// namespace for all of them is the safe choice.
type namer struct{ *emit.Namer }

func newNamer() *namer { return &namer{emit.NewNamer(IsReserved, sanitize)} }

// fresh returns base sanitized, or, when that is reserved or taken, the
// first free one of base_, base_2, base_3, ... (emit.Namer).
func (n *namer) fresh(base string) string { return n.Fresh(base) }
