//go:build !linux

package cli

import "os"

// isTerminalFile reports whether f is a character device, which is what
// a terminal is; elsewhere than Linux /dev/null passes too, and the
// progress line then draws into it.
func isTerminalFile(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
