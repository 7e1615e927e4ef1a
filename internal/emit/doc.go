// Package emit holds what the writers of models for other model checkers
// (packages nusmv and promela) share and that depends on no target
// language: handing out identifiers in one namespace, the wording of the
// warning an uncertified counter model carries, and the settings of the
// header comment (Header, whose options both packages re-export).
package emit
