// Package emit holds what the writers of models for other model checkers
// (packages nusmv and promela) share and that depends on no target
// language: handing out identifiers in one namespace, the wording of the
// warning an uncertified counter model carries, the settings of the
// header comment (Header, whose options both packages re-export), the
// bounds of unbounded shared variables in an export (SharedHi, and
// Domains for gsst.Spec.InDomain), and the counters after a step of a
// counter model as terms (CounterEffect, read off
// counterabs.StepInto), and comparisons split into the two sides they
// are printed as (SplitCmp). What a step needs and does is gsst's
// (gsst.Step): nothing here defines it again.
package emit
