package gsst

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// decoder turns the YAML node tree of a file into a File, reporting every
// structural problem (wrong kinds, unknown or missing keys) and parsing
// the guard and property strings.
type decoder struct {
	file  string
	lines []string // source lines, without line terminators
	errs  ErrorList
	// asciiLine[l-1] caches whether line l is all ASCII: 0 not known yet,
	// 1 yes, 2 no.
	asciiLine []uint8
}

// ascii reports whether source line l (1-based, in range) is all ASCII.
func (d *decoder) ascii(l int) bool {
	if d.asciiLine == nil {
		d.asciiLine = make([]uint8, len(d.lines))
	}
	if d.asciiLine[l-1] == 0 {
		d.asciiLine[l-1] = 2
		if isASCII(d.lines[l-1]) {
			d.asciiLine[l-1] = 1
		}
	}
	return d.asciiLine[l-1] == 1
}

func (d *decoder) pos(n *yaml.Node) Pos { return Pos{d.file, n.Line, n.Column} }

func (d *decoder) errorf(pos Pos, format string, args ...any) {
	d.errs.Add(pos, format, args...)
}

// lazyRegexp compiles expr at its first use rather than when the program
// starts: every run of vsym, whatever its command, would otherwise pay
// for the package's patterns.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

var yamlLineErr = lazyRegexp(`^yaml: line (\d+): (.*)$`)

// decodeYAML parses src into its root node. It returns nil after
// reporting an error when src is not a single YAML document holding a
// mapping.
func (d *decoder) decodeYAML(src []byte) (root *yaml.Node) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	err := func() (err error) {
		// The YAML library is not ours; whatever it does with hostile
		// input must not take the caller down.
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("yaml: invalid input (%v)", r)
			}
		}()
		err = dec.Decode(&doc)
		if err == nil {
			var extra yaml.Node
			switch e := dec.Decode(&extra); {
			case e == nil:
				d.errorf(Pos{d.file, extra.Line, extra.Column}, "more than one YAML document; a GSST file holds exactly one")
			case !errors.Is(e, io.EOF):
				err = e
			}
		}
		return err
	}()
	if errors.Is(err, io.EOF) {
		d.errorf(Pos{d.file, 1, 1}, "empty file: expected a mapping with keys states, groups, init, transitions")
		return nil
	}
	if err != nil {
		d.yamlError(err, src)
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		d.errorf(Pos{d.file, 1, 1}, "empty file: expected a mapping with keys states, groups, init, transitions")
		return nil
	}
	root = doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		d.errorf(d.pos(root), "empty file: expected a mapping with keys states, groups, init, transitions")
		return nil
	}
	return root
}

// yamlError reports an error of the YAML library, lifting "line N" out of
// its message. The library gives no column, so the error points at the
// start of the line. Errors of its reader (bytes that are not UTF-8,
// control characters) come without a line; they point at the first such
// character of src. Other errors without a line are on the first line.
func (d *decoder) yamlError(err error, src []byte) {
	var te *yaml.TypeError
	var msgs []string
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	for _, msg := range msgs {
		if m := yamlLineErr().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			if isYAMLParserProblem(m[2]) {
				line++
			}
			d.errorf(d.explainYAML(line, m[2]))
			continue
		}
		// No line: an error of the reader (found by firstBadChar), or of
		// the scanner or parser on the first line, whose 0-based line 0
		// made the library leave the line out.
		pos := Pos{d.file, 1, 1}
		if line, col, ok := firstBadChar(src); ok {
			pos.Line, pos.Col = line, col
		}
		d.errorf(pos, "invalid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
	}
}

// explainYAML returns the position and message for a problem the YAML
// library reports on line, adding what a GSST author most likely did:
// indent with a tab, or write a counter such as #C unquoted inside a
// flow mapping ({..., guard: #C = 0}), where the # starts a comment that
// swallows the closing brace.
func (d *decoder) explainYAML(line int, msg string) (Pos, string, string) {
	pos := Pos{d.file, line, 1}
	if line < 1 || line > len(d.lines) {
		return pos, "invalid YAML: %s", msg
	}
	if i := strings.IndexByte(d.lines[line-1], '\t'); i >= 0 && (strings.Contains(msg, "cannot start any token") || strings.Contains(msg, "tab")) {
		pos.Col = utf8.RuneCountInString(d.lines[line-1][:i]) + 1
		return pos, "invalid YAML: %s: a tab character; YAML does not allow tabs for indentation, indent with spaces", msg
	}
	if msg == "mapping values are not allowed in this context" || msg == "did not find expected key" {
		// The library's line is that of a token near the key; the key
		// is on it or the next.
		if m, ok := misindented(d.lines); ok && m.line >= line-1 && m.line <= line+1 {
			pos.Line, pos.Col = m.line, m.col
			return pos, "invalid YAML: %s: " + strings.ReplaceAll(m.explain(), "%", "%%"), msg
		}
	}
	if msg == "did not find expected ',' or ']'" {
		for l := line; l >= 1 && l >= line-2; l-- {
			if col, ok := flowGroupList(d.lines[l-1]); ok {
				pos.Line, pos.Col = l, col
				return pos, "invalid YAML: %s: inside a flow list YAML reads this [ as the start of a nested list; quote each entry that names groups (\"S -> T [g]\"), or write the list one entry per line", msg
			}
		}
	}
	for l := line; l >= 1 && l >= line-2; l-- {
		if col, kind, ok := flowComment(d.lines[l-1]); ok {
			pos.Line, pos.Col = l, col
			return pos, "invalid YAML: %s: this unquoted # starts a comment that runs to the end of the line and cuts the " + kind +
				" short (quote guards and properties that count processes, e.g. \"#C = 0\")", msg
		}
	}
	return pos, "invalid YAML: %s", msg
}

// flowComment finds a # that starts a comment (at the start of the line
// or after a space or tab, outside quotes) while a flow mapping or list
// opened on the same line is still open. It returns the #'s column in
// characters and "flow mapping" or "flow list".
func flowComment(line string) (col int, kind string, ok bool) {
	i := walkFlow(line, func(i int, open []byte) bool {
		c := line[i]
		if c != '#' || i > 0 && line[i-1] != ' ' && line[i-1] != '\t' {
			return false
		}
		if len(open) > 0 {
			kind = "flow mapping"
			if open[len(open)-1] == '[' {
				kind = "flow list"
			}
		}
		return true
	})
	if i < 0 || kind == "" {
		return 0, "", false
	}
	return utf8.RuneCountInString(line[:i]) + 1, kind, true
}

// flowGroupList finds, inside a flow list opened on line and outside
// quotes, an entry "U -> V [" of a broadcast or weak fairness list whose
// group list YAML takes for a nested list. It returns the column of that
// [ in characters.
func flowGroupList(line string) (col int, ok bool) {
	arrow, found := false, false
	i := walkFlow(line, func(i int, open []byte) bool {
		switch c := line[i]; {
		case c == '#' && (i == 0 || line[i-1] == ' '):
			return true
		case c == '-' && i+1 < len(line) && line[i+1] == '>':
			arrow = len(open) > 0
		case c == ',':
			arrow = false
		case c == '[' && arrow:
			found = true
			return true
		}
		return false
	})
	if i < 0 || !found {
		return 0, false
	}
	return utf8.RuneCountInString(line[:i]) + 1, true
}

// walkFlow walks line outside quotes, keeping the stack of the flow
// mappings and lists open, and calls visit at each character (open as
// before that character) until it returns true. It returns that
// character's byte offset, or -1.
func walkFlow(line string, visit func(i int, open []byte) bool) int {
	var open []byte
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '\'':
			quote = c
			continue
		}
		if visit(i, open) {
			return i
		}
		switch {
		case c == '{' || c == '[':
			open = append(open, c)
		case (c == '}' || c == ']') && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	return -1
}

// yamlParserProblems are the problems yaml.v3's parser (as opposed to
// its scanner) reports. For those the library prints the 0-based line of
// the construct it was parsing or of the offending token (the scanner's
// lines are 1-based), and no line at all when that is 0; yamlError adds
// the missing 1.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

func isYAMLParserProblem(msg string) bool { return yamlParserProblems[msg] }

// firstBadChar finds the first character of src that a YAML reader
// rejects: a byte that does not start valid UTF-8, or a code point outside
// YAML's printable set (tab, line feed, carriage return, U+0020..U+007E,
// U+0085, U+00A0..U+D7FF, U+E000..U+FFFD, U+10000 and above). A byte order
// mark at the very start is allowed. The column counts code points, as
// every other position does.
func firstBadChar(src []byte) (line, col int, ok bool) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		printable := r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0x7E) || r == 0x85 ||
			(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000
		if i == 0 && r == 0xFEFF {
			printable = true
		}
		if (r == utf8.RuneError && size <= 1) || !printable {
			return line, col, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return 0, 0, false
}

// kindName describes a node's kind for error messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a YAML node"
}

// want checks that n has kind k, reporting what was expected otherwise.
// Aliases are refused everywhere: they would let a file refer to one
// piece of text from two places, which no part of the format needs.
func (d *decoder) want(n *yaml.Node, k yaml.Kind, what string) bool {
	if n.Kind == k {
		return true
	}
	if n.Kind == yaml.AliasNode {
		d.errorf(d.pos(n), "YAML aliases are not supported (expected %s)", what)
		return false
	}
	d.errorf(d.pos(n), "expected %s, found %s", what, kindName(n))
	return false
}

// pair is one key: value entry of a mapping.
type pair struct {
	key, val *yaml.Node
}

// pairs returns the entries of mapping n in file order, reporting keys
// that are not scalars and keys given twice (yaml.v3 does not reject
// duplicate keys when decoding into nodes).
func (d *decoder) pairs(n *yaml.Node, what string) []pair {
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !d.want(k, yaml.ScalarNode, what+" key") {
			continue
		}
		if seen[k.Value] {
			d.errorf(d.pos(k), "duplicate key %q in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		out = append(out, pair{k, v})
	}
	return out
}

// fields splits a mapping into its known keys, reporting unknown ones.
func (d *decoder) fields(n *yaml.Node, what string, known ...string) map[string]pair {
	out := map[string]pair{}
	for _, p := range d.pairs(n, what) {
		if !slices.Contains(known, p.key.Value) {
			d.errorf(d.pos(p.key), "unknown key %q in %s (known keys: %s)", p.key.Value, what, strings.Join(known, ", "))
			continue
		}
		out[p.key.Value] = p
	}
	return out
}

// isName reports whether s is a state or group name: ASCII letters,
// digits and _, not starting with a digit. (A regexp did this before; it
// was most of the time spent on a guard key listing a thousand groups.)
func isName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// ident reads a scalar naming a state or group.
func (d *decoder) ident(n *yaml.Node, what string) *Ident {
	if !d.want(n, yaml.ScalarNode, what) {
		return nil
	}
	if !isName(n.Value) {
		d.errorf(d.pos(n), "%s %q is not a name (letters, digits and _, not starting with a digit)", what, n.Value)
		return nil
	}
	return &Ident{d.pos(n), n.Value}
}

// integer reads an integer scalar.
func (d *decoder) integer(n *yaml.Node, what string) (int64, bool) {
	if !d.want(n, yaml.ScalarNode, what) {
		return 0, false
	}
	if n.Tag != "!!int" {
		if n.Tag == "!!float" && isDigits(n.Value) {
			// The YAML library types a decimal beyond 64 bits as a
			// float: it is an integer, just far too large.
			d.errorf(d.pos(n), "%s %s is out of range", what, n.Value)
			return 0, false
		}
		d.errorf(d.pos(n), "expected %s (an integer), found %s", what, kindName(n))
		return 0, false
	}
	var v int64
	if err := n.Decode(&v); err != nil {
		d.errorf(d.pos(n), "%s %s is out of range", what, n.Value)
		return 0, false
	}
	return v, true
}

// sizeRange matches a range of group sizes, "N.." or "N..M".
var sizeRange = lazyRegexp(`^([0-9]+)\.\.([0-9]*)$`)

// groupSize reads the size of a group: an integer, or a range "N.." (at
// least N processes) or "N..M", plain or quoted. Whether the numbers make
// sense (at least 1, M >= N, within the limits) is the checker's business.
//
// In a file with parameters, a size may also be an expression over them
// ("n - f"), which the checker resolves.
func (d *decoder) groupSize(n *yaml.Node, params bool) *GroupDecl {
	gd := &GroupDecl{SizePos: d.pos(n)}
	if n.Kind == yaml.ScalarNode && n.Tag != "!!int" && !(n.Tag == "!!float" && isDigits(n.Value)) {
		m := sizeRange().FindStringSubmatch(n.Value)
		if m == nil && params && n.Tag == "!!str" {
			gd.SizeText = n.Value
			gd.SizeX = d.parseString(n)
			gd.SizeOK = gd.SizeX != nil
			return gd
		}
		if m == nil || n.Tag != "!!str" {
			d.errorf(d.pos(n), "expected a group size (an integer, or a range N.. or N..M), found %s", kindName(n))
			return gd
		}
		lo, err1 := strconv.ParseInt(m[1], 10, 64)
		hi, err2 := int64(0), error(nil)
		if m[2] != "" {
			hi, err2 = strconv.ParseInt(m[2], 10, 64)
		}
		if err1 != nil || err2 != nil {
			d.errorf(d.pos(n), "group size range %s is out of range", n.Value)
			return gd
		}
		gd.Size, gd.Max, gd.Ranged, gd.Unbounded, gd.SizeOK = lo, hi, true, m[2] == "", true
		return gd
	}
	gd.Size, gd.SizeOK = d.integer(n, "a group size")
	return gd
}

// isDigits reports whether s is a decimal integer literal: an optional
// sign and one or more digits.
func isDigits(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// text reads a scalar holding a guard or property. A null scalar gets a
// hint: an unquoted guard starting with # is a YAML comment.
// The error points at the key, since a missing value has no place of its
// own.
func (d *decoder) text(key, n *yaml.Node, what string) (string, bool) {
	if !d.want(n, yaml.ScalarNode, what) {
		return "", false
	}
	if n.Tag == "!!null" && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		d.errorf(d.pos(key), "missing %s (quote it: in YAML an unquoted # starts a comment)", what)
		return "", false
	}
	return n.Value, true
}

// stepName decodes the name key of a transition, a rendezvous or an
// environment step, nil when it has none.
func (d *decoder) stepName(m map[string]pair) *Ident {
	p, ok := m["name"]
	if !ok {
		return nil
	}
	return d.ident(p.val, "step name")
}

// decodeFile decodes the root mapping.
func (d *decoder) decodeFile(root *yaml.Node) *File {
	f := &File{Pos: d.pos(root)}
	if !d.want(root, yaml.MappingNode, "a mapping with keys states, groups, init, transitions") {
		return nil
	}
	m := d.fields(root, "the GSST", "name", "params", "assume", "shared", "states", "groups", "init", "transitions", "rendezvous", "environment", "properties", "fairness")
	for _, k := range []string{"states", "groups", "init"} {
		if _, ok := m[k]; !ok {
			d.errorf(f.Pos, "missing key %q", k)
		}
	}
	// A system whose steps are all rendezvous needs no transitions.
	if _, ok := m["transitions"]; !ok {
		if _, ok := m["rendezvous"]; !ok {
			d.errorf(f.Pos, "missing key %q (a system with rendezvous only may leave it out)", "transitions")
		}
	}
	if p, ok := m["name"]; ok {
		if d.want(p.val, yaml.ScalarNode, "a name") {
			f.Name, f.NamePos = p.val.Value, d.pos(p.val)
		}
	}
	if p, ok := m["params"]; ok {
		f.Params = d.decodeParams(p.val)
	}
	if p, ok := m["assume"]; ok {
		f.Assume = &AssumeDecl{Pos: d.pos(p.val)}
		if text, ok := d.text(p.key, p.val, "assumption"); ok {
			f.Assume.Text = text
			f.Assume.X = d.parseString(p.val)
		}
	}
	if p, ok := m["shared"]; ok {
		f.Shared = d.decodeShared(p.val)
	}
	f.StatesBad, f.GroupsBad = true, true
	if p, ok := m["states"]; ok && d.want(p.val, yaml.SequenceNode, "a list of state names") {
		f.StatesBad = false
		if len(p.val.Content) == 0 {
			d.errorf(d.pos(p.val), "empty list of states")
		}
		for _, s := range p.val.Content {
			if id := d.ident(s, "state name"); id != nil {
				f.States = append(f.States, id)
			}
		}
	}
	if p, ok := m["groups"]; ok && d.want(p.val, yaml.MappingNode, "a mapping from group names to sizes") {
		f.GroupsBad = false
		if len(p.val.Content) == 0 {
			d.errorf(d.pos(p.val), "no groups: a system needs at least one process")
		}
		for _, q := range d.pairs(p.val, "groups") {
			name := d.ident(q.key, "group name")
			gd := d.groupSize(q.val, f.Params != nil)
			// A group with a bad size is still declared, so that its
			// uses elsewhere do not add "unknown group" errors.
			if name != nil {
				gd.Name = name
				f.Groups = append(f.Groups, gd)
			}
		}
	}
	if p, ok := m["init"]; ok {
		f.Init = d.decodeInit(p.key, p.val)
	}
	if p, ok := m["transitions"]; ok && d.want(p.val, yaml.SequenceNode, "a list of transitions") {
		for _, t := range p.val.Content {
			if td := d.decodeTransition(t); td != nil {
				f.Transitions = append(f.Transitions, td)
			}
		}
	}
	if p, ok := m["rendezvous"]; ok && d.list(p.val, "a list of rendezvous {parts: [...], guard: ..., update: ...}") {
		for _, r := range p.val.Content {
			if rd := d.decodeRendezvous(r); rd != nil {
				f.Rendezvous = append(f.Rendezvous, rd)
			}
		}
	}
	if p, ok := m["environment"]; ok && d.list(p.val, "a list of environment steps {guard: ..., update: ..., broadcast: [...]}") {
		for _, e := range p.val.Content {
			if ed := d.decodeEnvironment(e); ed != nil {
				f.Environment = append(f.Environment, ed)
			}
		}
	}
	if p, ok := m["properties"]; ok {
		// "properties:" with nothing after it means no properties.
		if !(p.val.Kind == yaml.ScalarNode && p.val.Tag == "!!null") &&
			d.want(p.val, yaml.MappingNode, "a mapping from property names to CTL formulas") {
			for _, q := range d.pairs(p.val, "properties") {
				f.Properties = append(f.Properties, d.decodeProperty(q))
			}
		}
	}
	if p, ok := m["fairness"]; ok {
		f.Fairness = d.decodeFairness(p.key, p.val)
	}
	return f
}

var propNameRE = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func (d *decoder) decodeProperty(q pair) *PropDecl {
	pd := &PropDecl{Name: &Ident{d.pos(q.key), q.key.Value}, Pos: d.pos(q.val)}
	if !propNameRE().MatchString(q.key.Value) {
		d.errorf(d.pos(q.key), "property name %q is not a name (letters, digits, _ and -, not starting with a digit or -)", q.key.Value)
	}
	text, ok := d.text(q.key, q.val, "property")
	if !ok {
		return pd
	}
	pd.Text = text
	pd.X = d.parseString(q.val)
	return pd
}

func (d *decoder) decodeInit(key, n *yaml.Node) *InitDecl {
	in := &InitDecl{Pos: d.pos(key)}
	if n.Kind == yaml.ScalarNode {
		in.All = d.ident(n, "initial state")
		if in.All == nil {
			return nil
		}
		return in
	}
	if n.Kind == yaml.SequenceNode {
		if in.AllOver = d.initOver(n); in.AllOver == nil {
			return nil
		}
		return in
	}
	if !d.want(n, yaml.MappingNode, "an initial state, a list of initial states, or a mapping from group names to initial states") {
		return nil
	}
	for _, q := range d.pairs(n, "init") {
		gi := &GroupInit{Group: d.ident(q.key, "group name")}
		switch q.val.Kind {
		case yaml.ScalarNode:
			gi.State = d.ident(q.val, "initial state")
		case yaml.MappingNode:
			for _, c := range d.pairs(q.val, "init of group "+q.key.Value) {
				st := d.ident(c.key, "state name")
				cnt, ok := d.integer(c.val, "a number of processes")
				if st != nil && ok {
					gi.Counts = append(gi.Counts, &InitCount{State: st, Count: cnt, CountPos: d.pos(c.val)})
				}
			}
			if len(q.val.Content) == 0 {
				d.errorf(d.pos(q.val), "empty initial distribution for group %q", q.key.Value)
			}
		case yaml.SequenceNode:
			gi.Over = d.initOver(q.val)
		default:
			d.want(q.val, yaml.ScalarNode, "an initial state, a list of initial states, or a mapping from states to numbers of processes")
		}
		if gi.Group != nil {
			in.Groups = append(in.Groups, gi)
		}
	}
	return in
}

func (d *decoder) decodeTransition(n *yaml.Node) *TransDecl {
	if !d.want(n, yaml.MappingNode, "a transition {from: U, to: V, guard: ...}") {
		return nil
	}
	td := &TransDecl{Pos: d.pos(n)}
	m := d.fields(n, "transition", "name", "from", "to", "guard", "update", "broadcast")
	td.Name = d.stepName(m)
	td.From, td.To = d.fromTo(m, td.Pos, "transition")
	if p, ok := m["update"]; ok {
		td.Updates = d.decodeUpdates(p, true)
	}
	td.Broadcast = d.transfers(m)
	p, ok := m["guard"]
	if !ok {
		return td
	}
	td.Guarded = true
	g := p.val
	if g.Kind == yaml.MappingNode {
		if len(g.Content) == 0 {
			d.errorf(d.pos(g), "empty guard mapping: no group could take this transition (leave the transition out instead)")
		}
		for _, q := range d.pairs(g, "guard") {
			gd := &GuardDecl{KeyPos: d.pos(q.key), Pos: d.pos(q.val)}
			gd.Groups = d.groupList(q.key, "guard")
			text, ok := d.text(q.key, q.val, "guard")
			if ok {
				gd.Text = text
				gd.X = d.parseString(q.val)
			}
			td.Guards = append(td.Guards, gd)
		}
		return td
	}
	if gd := d.sharedGuard(p); gd != nil {
		td.Guards = append(td.Guards, gd)
	}
	return td
}

// sharedGuard reads a guard given as one string for every group.
func (d *decoder) sharedGuard(p pair) *GuardDecl {
	g := p.val
	gd := &GuardDecl{Shared: true, KeyPos: d.pos(p.key), Pos: d.pos(g)}
	if g.Kind != yaml.ScalarNode && g.Kind != yaml.AliasNode {
		d.errorf(d.pos(g), "expected a guard string, or a mapping from groups to guard strings, found %s", kindName(g))
		return nil
	}
	text, ok := d.text(p.key, g, "guard")
	if ok {
		gd.Text = text
		gd.X = d.parseString(g)
	}
	return gd
}

// fromTo reads the from and to keys of a transition or a rendezvous
// part (what), reporting a missing one at pos.
func (d *decoder) fromTo(m map[string]pair, pos Pos, what string) (from, to *Ident) {
	for _, k := range []string{"from", "to"} {
		p, ok := m[k]
		if !ok {
			d.errorf(pos, "%s without %q", what, k)
			continue
		}
		id := d.ident(p.val, "state name")
		if k == "from" {
			from = id
		} else {
			to = id
		}
	}
	return from, to
}

// groupList splits a guard key "a, b" into group names, with exact
// positions when the key sits on one line as written.
func (d *decoder) groupList(k *yaml.Node, what string) []*Ident {
	pos := d.offsets(k)
	var out []*Ident
	start := 0
	for i := 0; i <= len(k.Value); i++ {
		if i < len(k.Value) && k.Value[i] != ',' {
			continue
		}
		part := k.Value[start:i]
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		name := strings.TrimSpace(part)
		p := pos(start + lead)
		switch {
		case name == "":
			d.errorf(p, "empty group name in %s key %q", what, k.Value)
		case !isName(name):
			d.errorf(p, "group name %q in %s key is not a name", name, what)
		default:
			out = append(out, &Ident{p, name})
		}
		start = i + 1
	}
	return out
}

// parseString parses the guard or property held by scalar n, reporting a
// syntax error at its exact position. An unquoted string followed by a
// comment was most likely cut short by a # meant as a counter: the error
// then says so.
func (d *decoder) parseString(n *yaml.Node) Expr {
	x, err := parseExpr(n.Value, d.offsets(n))
	if err != nil {
		if n.Style == 0 && n.LineComment != "" {
			err.Msg += fmt.Sprintf(" (quote it: in YAML an unquoted # starts a comment, so only %q was read and %q was dropped)", n.Value, n.LineComment)
		}
		d.errs = append(d.errs, err)
		return nil
	}
	return x
}

// offsets returns the map from byte offsets of scalar n's value to file
// positions. It recomputes where each character of the value sits in the
// source and checks it against the source text:
//
//   - plain scalars and single- or double-quoted scalars on one line map
//     every character exactly (quotes, doubled single quotes and backslash
//     escapes are taken into account; an escape maps to its backslash);
//   - literal block scalars (|) map each value line to its source line,
//     after the block's indentation;
//   - anything else (folded block scalars, flow scalars spanning lines,
//     tagged scalars) maps every offset to the start of the scalar.
//
// Columns count characters, as yaml.v3 does.
//
// The map is kept small: a guard of a generated system can be megabytes
// long. A value written verbatim in ASCII on one line needs no table at
// all (offset i is i columns after the first character); otherwise the
// table holds plain ints, which the garbage collector need not scan.
func (d *decoder) offsets(n *yaml.Node) func(off int) Pos {
	start := d.pos(n)
	fallback := func(int) Pos { return start }
	if n.Line < 1 || n.Line > len(d.lines) || n.Column < 1 {
		return fallback
	}
	var m *posMap
	switch {
	case n.Style&yaml.TaggedStyle != 0:
	case n.Style&yaml.LiteralStyle != 0:
		m = d.literalOffsets(n)
	case n.Style&yaml.FoldedStyle != 0:
	case n.Style&yaml.DoubleQuotedStyle != 0:
		m = d.quotedOffsets(n, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		m = d.quotedOffsets(n, '\'')
	default:
		m = d.plainOffsets(n)
	}
	if m == nil {
		return fallback
	}
	m.file, m.start = d.file, start
	return m.pos
}

// posMap maps the byte offsets 0..size of a scalar's value (size: one past
// the end) to file positions. With cols nil, every offset is on line and
// offset i is at column col+i; otherwise offset i is at column cols[i], on
// line lines[i] when lines is not nil and on line otherwise.
type posMap struct {
	file  string
	start Pos // for offsets out of range
	size  int
	line  int
	col   int
	lines []int
	cols  []int
}

func (m *posMap) pos(off int) Pos {
	switch {
	case off < 0 || off > m.size:
		return m.start
	case m.cols == nil:
		return Pos{m.file, m.line, m.col + off}
	case m.lines == nil:
		return Pos{m.file, m.line, m.cols[off]}
	}
	return Pos{m.file, m.lines[off], m.cols[off]}
}

// lineFrom returns the rest of source line l (1-based) from character
// column col (1-based), or ok false when there is no such place.
func (d *decoder) lineFrom(l, col int) (string, bool) {
	if l < 1 || l > len(d.lines) {
		return "", false
	}
	s := d.lines[l-1]
	if d.ascii(l) {
		// Columns are bytes: no walk along the line, which matters when
		// a long line (a flow mapping of guards) holds many scalars.
		switch {
		case col < 1:
			return s, true
		case col-1 > len(s):
			return "", false
		}
		return s[col-1:], true
	}
	for c := 1; c < col; c++ {
		if s == "" {
			return "", false
		}
		_, size := utf8.DecodeRuneInString(s)
		s = s[size:]
	}
	return s, true
}

// isASCII reports whether s is all ASCII, so that its byte offsets are
// also character offsets.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (d *decoder) plainOffsets(n *yaml.Node) *posMap {
	raw, ok := d.lineFrom(n.Line, n.Column)
	if !ok || !strings.HasPrefix(raw, n.Value) {
		return nil
	}
	m := &posMap{size: len(n.Value), line: n.Line, col: n.Column}
	if !isASCII(n.Value) {
		m.cols = runeCols(n.Value, n.Column, nil)
	}
	return m
}

// runeCols appends to out the column of the character at each byte offset
// of s, and the column after s, s starting at column col.
func runeCols(s string, col int, out []int) []int {
	for i := 0; i < len(s); col++ {
		// An invalid byte counts as one character of one byte.
		_, size := utf8.DecodeRuneInString(s[i:])
		for range size {
			out = append(out, col)
		}
		i += size
	}
	return append(out, col)
}

// quotedOffsets maps a quoted scalar on one line, replaying the quoting
// rules over the source and checking that they give back the value.
func (d *decoder) quotedOffsets(n *yaml.Node, quote byte) *posMap {
	raw, ok := d.lineFrom(n.Line, n.Column)
	if !ok || raw == "" || raw[0] != quote {
		return nil
	}
	v := n.Value
	// Written verbatim: no quote or backslash inside, so no escape, and
	// the closing quote right after the value.
	if len(raw) > len(v)+1 && raw[1:1+len(v)] == v && raw[1+len(v)] == quote &&
		strings.IndexByte(v, quote) < 0 && (quote == '\'' || strings.IndexByte(v, '\\') < 0) && isASCII(v) {
		return &posMap{size: len(v), line: n.Line, col: n.Column + 1}
	}
	var val []byte
	var out []int
	col := n.Column + 1
	i := 1
	for {
		if i >= len(raw) {
			return nil // the scalar continues on the next line
		}
		c := raw[i]
		switch {
		case c == quote && quote == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			val = append(val, '\'')
			out = append(out, col)
			i += 2
			col += 2
			continue
		case c == quote:
			if string(val) != v {
				return nil
			}
			return &posMap{size: len(v), line: n.Line, cols: append(out, col)}
		case c == '\\' && quote == '"':
			// The decoded bytes of an escape all map to its backslash.
			// Rather than re-implementing every YAML escape, find the
			// escape's length and let the final comparison with the
			// value catch any disagreement.
			if i+1 >= len(raw) {
				return nil
			}
			size := 2
			switch raw[i+1] {
			case 'x':
				size = 4
			case 'u':
				size = 6
			case 'U':
				size = 10
			}
			if i+size > len(raw) {
				return nil
			}
			dec, err := decodeEscape(raw[i : i+size])
			if err != nil {
				return nil
			}
			for range len(dec) {
				out = append(out, col)
			}
			val = append(val, dec...)
			i += size
			col += size
			continue
		}
		_, size := utf8.DecodeRuneInString(raw[i:])
		for range size {
			out = append(out, col)
		}
		val = append(val, raw[i:i+size]...)
		i += size
		col++
	}
}

// decodeEscape decodes one double-quoted YAML escape by asking the YAML
// library itself, so the two cannot disagree.
func decodeEscape(esc string) (string, error) {
	var s string
	err := yaml.Unmarshal([]byte(`"`+esc+`"`), &s)
	return s, err
}

// literalOffsets maps a literal block scalar: value line k sits on source
// line n.Line+1+k after the indentation.
func (d *decoder) literalOffsets(n *yaml.Node) *posMap {
	lines := make([]int, 0, len(n.Value)+1)
	cols := make([]int, 0, len(n.Value)+1)
	for k, l := range strings.Split(n.Value, "\n") {
		srcLine := n.Line + 1 + k
		if l == "" {
			// An empty value line: point after the indentation of the
			// source line if there is one, else at its start.
			col := 1
			if srcLine <= len(d.lines) {
				col = 1 + utf8.RuneCountInString(d.lines[srcLine-1])
			}
			lines = append(lines, srcLine)
			cols = append(cols, col)
			continue
		}
		if srcLine > len(d.lines) {
			return nil
		}
		s := d.lines[srcLine-1]
		if !strings.HasSuffix(s, l) || strings.TrimLeft(s[:len(s)-len(l)], " ") != "" {
			return nil
		}
		// The last entry stands for the "\n" (or the end of the value).
		cols = runeCols(l, 1+len(s)-len(l), cols)
		for len(lines) < len(cols) {
			lines = append(lines, srcLine)
		}
	}
	// One entry per byte and one past the end: the loop added one per
	// line terminator plus one at the end.
	if len(cols) != len(n.Value)+1 {
		return nil
	}
	return &posMap{size: len(n.Value), lines: lines, cols: cols}
}

// splitLines splits src into lines without terminators.
func splitLines(src []byte) []string {
	// YAML breaks lines at \r\n, \n and a lone \r.
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}
