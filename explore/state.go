package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vsym/vsym/gsst"
)

// MarshalJSON writes a state as one object whose keys are its counters as
// the GSST language writes them, in a fixed order: the total counters in
// the order of the system's states, then, for a group-counter model, the
// group counters group by group, each in state order:
//
//	{"#N": 2, "#T": 1, "#C": 0, "#N[reader]": 1, "#T[reader]": 0, ...}
//
// A state of a system with shared variables ends with their values,
// under the key "shared", as the language writes them (true/false, an
// enumeration's constant, an integer):
//
//	{"#N": 2, ..., "shared": {"lock": true, "turn": "writer", "k": 0}}
//
// A State made by hand, without a system, names counters by index
// ("#0", "#0[1]") and shared variables too ("0").
func (s State) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v int) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key) // a string always marshals
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(v))
	}
	for i, c := range s.Counters {
		put("#"+s.stateName(i), c)
	}
	for g, row := range s.Groups {
		for i, c := range row {
			put("#"+s.stateName(i)+"["+s.groupName(g)+"]", c)
		}
	}
	if s.Shared != nil {
		if !first {
			b.WriteByte(',')
		}
		b.WriteString(`"shared":`)
		b.WriteString(sharedJSON(s.sys, s.Shared, s.text))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// sharedJSON writes shared values as a JSON object, each as the language
// writes it: a boolean, an enumeration constant (a string), or an
// integer. text holds values read back from JSON (a constant whose
// enumeration a State without system does not know), "" elsewhere.
func sharedJSON(sys *gsst.System, vals []int, text []string) string {
	if sys != nil && len(vals) == len(sys.Shared) && len(text) == 0 {
		return string(sys.SharedJSON(vals))
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for j, v := range vals {
		if j > 0 {
			b.WriteByte(',')
		}
		name := strconv.Itoa(j)
		var val string
		switch {
		case j < len(text) && text[j] != "":
			val = text[j]
		case sys != nil && j < len(sys.Shared):
			sh := &sys.Shared[j]
			val = strconv.Itoa(v)
			switch {
			case sh.Bool:
				val = strconv.FormatBool(v != 0)
			case sh.Values != nil:
				q, _ := json.Marshal(sh.ValueName(v))
				val = string(q)
			}
		default:
			val = strconv.Itoa(v)
		}
		if sys != nil && j < len(sys.Shared) {
			name = sys.Shared[j].Name
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(val)
	}
	b.WriteByte('}')
	return b.String()
}

func (s State) stateName(i int) string {
	if s.sys != nil && i < len(s.sys.States) {
		return s.sys.States[i]
	}
	return strconv.Itoa(i)
}

func (s State) groupName(g int) string {
	if s.sys != nil && g < len(s.sys.Groups) {
		return s.sys.Groups[g].Name
	}
	return strconv.Itoa(g)
}

// UnmarshalJSON reads what MarshalJSON writes, relying on its key order:
// keys "#S" are the total counters in state order, keys "#S[g]" the group
// counters, a new row for each group in order of first appearance. The
// names themselves are not kept.
func (s *State) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("explore: a state must be a JSON object of counters")
	}
	*s = State{}
	rows := map[string]int{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if key == "shared" {
			if err := s.readShared(dec); err != nil {
				return err
			}
			continue
		}
		var v int
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("explore: counter %q: %w", key, err)
		}
		open := strings.IndexByte(key, '[')
		switch {
		case !strings.HasPrefix(key, "#"):
			return fmt.Errorf("explore: %q is not a counter", key)
		case open < 0:
			s.Counters = append(s.Counters, v)
		default:
			g, ok := rows[key[open:]]
			if !ok {
				g = len(s.Groups)
				rows[key[open:]] = g
				s.Groups = append(s.Groups, nil)
			}
			s.Groups[g] = append(s.Groups[g], v)
		}
	}
	_, err := dec.Token()
	return err
}

// readShared reads the object of shared values: a boolean as 0 or 1, an
// integer as it is, an enumeration constant as -1 with its name kept
// (written back as read).
func (s *State) readShared(dec *json.Decoder) error {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("explore: shared values must be a JSON object")
	}
	s.Shared = []int{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("explore: shared variable %q: %w", key, err)
		}
		var b bool
		var n int
		var str string
		text := ""
		switch {
		case json.Unmarshal(raw, &b) == nil:
			n = 0
			if b {
				n = 1
			}
		case json.Unmarshal(raw, &n) == nil:
		case json.Unmarshal(raw, &str) == nil:
			n, text = -1, string(raw)
		default:
			return fmt.Errorf("explore: shared variable %q has value %s", key, raw)
		}
		s.Shared = append(s.Shared, n)
		if text != "" {
			for len(s.text) < len(s.Shared)-1 {
				s.text = append(s.text, "")
			}
			s.text = append(s.text, text)
		}
	}
	_, err := dec.Token()
	return err
}
