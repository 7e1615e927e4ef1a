package dot

import (
	"github.com/vsym/vsym/gsst"
)

// updateText writes an update as the spec did, or from its assignments
// for a spec built by hand; "" for none.
func updateText(sys *gsst.System, u *gsst.Update) string {
	if u.Text != "" || len(u.Assign) == 0 {
		return u.Text
	}
	return sys.FormatUpdate(u)
}

// updateLines returns the label line (escaped HTML) and tooltip line of
// a block's update; none when it has no update.
func updateLines(sys *gsst.System, u *gsst.Update, prefix string) (label, tip []string) {
	text := updateText(sys, u)
	if text == "" {
		return nil, nil
	}
	return []string{prefix + font(colourMuted, 0, esc("update: "+text))}, []string{"update: " + text}
}
