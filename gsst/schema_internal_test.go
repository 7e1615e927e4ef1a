package gsst

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// The schema is checked with a real JSON Schema validator
// (santhosh-tekuri/jsonschema, which also checks the schema itself
// against the draft-07 meta-schema when compiling it), on YAML converted
// to JSON values with their YAML types kept: 3 stays a number, "3" a
// string, true a boolean, as an editor's YAML language server sees them.

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("gsst.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("gsst.schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v", err)
	}
	return sch
}

// yamlToJSON converts one YAML document to the JSON value a YAML language
// server validates: mappings with their keys as strings, YAML integers,
// floats, booleans and nulls as JSON numbers, booleans and null, anything
// else as a string.
func yamlToJSON(src []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("empty document")
	}
	v, err := nodeValue(doc.Content[0], 0)
	if err != nil {
		return nil, err
	}
	// A round trip through JSON text gives exactly the values the
	// validator expects (json.Number for numbers).
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(text))
}

func nodeValue(n *yaml.Node, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("nesting too deep")
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := []any{}
		for _, c := range n.Content {
			v, err := nodeValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[n.Content[i].Value] = v
		}
		return out, nil
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return json.Number(strconv.FormatInt(i, 10)), nil
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			return json.Number(strconv.FormatUint(u, 10)), nil
		}
		return n.Value, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
		return n.Value, nil // JSON has no infinities
	}
	return n.Value, nil
}

// schemaErrors validates src and returns the nodes of the validator's
// error tree as "instance-location keyword" and "schema:schema-location
// keyword" strings, or nil when src satisfies the schema. Inner nodes count too: a bad property name is
// reported by propertyNames at the mapping, with a leaf about the name
// alone.
func schemaErrors(t testing.TB, sch *jsonschema.Schema, src []byte) []string {
	t.Helper()
	inst, err := yamlToJSON(src)
	if err != nil {
		t.Fatalf("not YAML: %v\n%s", err, src)
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatalf("validator error %T: %v", err, err)
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
			out = append(out, "/"+strings.Join(e.InstanceLocation, "/")+" "+kw[len(kw)-1])
			_, frag, _ := strings.Cut(e.SchemaURL, "#")
			out = append(out, "schema:"+frag+" "+kw[len(kw)-1])
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(out) == 0 {
		out = []string{err.Error()}
	}
	return out
}

// FuzzSchema checks that the schema accepts every file vsym accepts.
func FuzzSchema(f *testing.F) {
	for _, src := range fuzzSeeds(f) {
		f.Add(src)
	}
	sch := compileSchema(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := Parse("f.yaml", src); err != nil {
			return
		}
		if errs := schemaErrors(t, sch, src); errs != nil {
			t.Fatalf("vsym accepts it, the schema rejects it: %v\n%s", errs, src)
		}
	})
}
