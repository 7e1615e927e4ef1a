package z3

// SetDefaultOnly lets the external tests exercise Solve's fallback solver
// directly; it returns a function that restores the previous setting.
func SetDefaultOnly(b bool) (restore func()) {
	old := defaultOnly
	defaultOnly = b
	return func() { defaultOnly = old }
}
