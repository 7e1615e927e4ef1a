package testsupport

import (
	"strconv"
	"strings"
)

// FirstDiff shows the first line where the golden text want and the
// output got differ, for the failure message of a golden-file test; ""
// when they are equal.
func FirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  golden: " + strconv.Quote(w) + "\n  got:    " + strconv.Quote(g)
		}
	}
	return ""
}
