package z3

// SetDefaultOnly lets the external tests exercise Solve's fallback solver
// directly; it returns a function that restores the previous setting.
func SetDefaultOnly(b bool) (restore func()) {
	old := defaultOnly
	defaultOnly = b
	return func() { defaultOnly = old }
}

// SetNoHull makes Prove skip the affine hull, so that the tests exercise
// Spacer on systems the equalities alone would prove; it returns a
// function that restores the previous setting.
func SetNoHull(b bool) (restore func()) {
	old := noHull
	noHull = b
	return func() { noHull = old }
}
