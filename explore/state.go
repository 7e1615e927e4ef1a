package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// MarshalJSON writes a state as one object whose keys are its counters as
// the GSST language writes them, in a fixed order: the total counters in
// the order of the system's states, then, for a group-counter model, the
// group counters group by group, each in state order:
//
//	{"#N": 2, "#T": 1, "#C": 0, "#N[reader]": 1, "#T[reader]": 0, ...}
//
// A State made by hand, without a system, names counters by index
// ("#0", "#0[1]").
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
	b.WriteByte('}')
	return b.Bytes(), nil
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
