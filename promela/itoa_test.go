package promela

import "strconv"

func itoa(k int) string { return strconv.Itoa(k) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
