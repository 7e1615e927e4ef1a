// Package checked is int64 arithmetic that reports overflow instead of
// wrapping. It serves the places that compute with values they did not
// bound themselves: ranges of terms over caller-given bounds
// (presburger.FoldBounds) and terms read back from Z3 (presburger/z3).
package checked
