// Package ctl defines formulas of the branching-time logic CTL whose atomic
// propositions are Presburger formulas (package presburger) over counters.
//
// The operators are the boolean connectives and the path quantifiers of
// CTL: EX AX EF AF EG AG, E[p U q] and A[p U q]. A Formula is a closed sum
// type, like presburger.Formula; the engines in package explore and the
// NuSMV emitter walk it with a type switch.
package ctl
