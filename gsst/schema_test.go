package gsst_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/vsym/vsym/gsst"
	"github.com/vsym/vsym/specs"
)

func TestSchemaAcceptsBundledSpecs(t *testing.T) {
	sch := gsst.CompileSchema(t)
	if len(specs.List()) == 0 {
		t.Fatal("no bundled specs")
	}
	for _, name := range specs.List() {
		src, err := specs.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gsst.Parse(name, src); err != nil {
			t.Fatalf("%s does not parse: %v", name, err)
		}
		if errs := gsst.SchemaErrors(t, sch, src); errs != nil {
			t.Errorf("%s: schema rejects a bundled spec: %v", name, errs)
		}
	}
}

// TestSchemaAcceptsConstructs checks the constructs beyond the paper:
// the examples of testdata/constructs, which use every one of them, validate.
func TestSchemaAcceptsConstructs(t *testing.T) {
	sch := gsst.CompileSchema(t)
	for _, src := range constructSeeds(t) {
		if errs := gsst.SchemaErrors(t, sch, src); errs != nil {
			t.Errorf("schema rejects a valid spec: %v\n%s", errs, src)
		}
	}
}

// constructSeeds returns the specs of testdata/constructs and the parameter template,
// each valid.
func constructSeeds(t *testing.T) [][]byte {
	t.Helper()
	out := [][]byte{[]byte(paramTemplate)}
	for _, name := range []string{"threshold", "lock", "pool", "initial"} {
		src, err := os.ReadFile("testdata/constructs/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, src)
	}
	for _, src := range out {
		if _, err := gsst.Parse("ext.yaml", src); err != nil {
			t.Fatalf("does not parse: %v\n%s", err, src)
		}
	}
	return out
}

func TestSchemaAcceptsGeneratedFamilies(t *testing.T) {
	sch := gsst.CompileSchema(t)
	type member struct {
		name string
		src  func() ([]byte, error)
	}
	var all []member
	for _, d := range []int{1, 2, 3, 7, 40} {
		for _, m := range []int{2, 3, 6} {
			for _, q := range []int{1, 5} {
				all = append(all, member{fmt.Sprintf("grw d=%d q=%d m=%d", d, q, m), func() ([]byte, error) { return specs.GRW(d, q, m) }})
			}
		}
	}
	// r = 200 makes guard keys longer than YAML's 1024-character limit
	// on implicit keys, so ASR writes them in the explicit "? key" form.
	for _, p := range [][3]int{{1, 1, 1}, {4, 2, 2}, {5, 2, 1}, {7, 3, 4}, {10, 10, 3}, {1000, 7, 1000000000}, {200, 200, 1}} {
		all = append(all, member{fmt.Sprintf("asr n=%d r=%d b=%d", p[0], p[1], p[2]), func() ([]byte, error) { return specs.ASR(p[0], p[1], p[2]) }})
	}
	for _, size := range []string{"1..", "3..", "2..7", "01.."} {
		all = append(all,
			member{"grw size " + size, func() ([]byte, error) { return specs.GRWSized(3, size, 4) }},
			member{"asr size " + size, func() ([]byte, error) { return specs.ASRSized(3, size, 2) }})
	}
	for _, mem := range all {
		src, err := mem.src()
		if err != nil {
			t.Fatalf("%s: %v", mem.name, err)
		}
		if _, err := gsst.Parse("gen.yaml", src); err != nil {
			t.Fatalf("%s does not parse: %v", mem.name, err)
		}
		if errs := gsst.SchemaErrors(t, sch, src); errs != nil {
			t.Errorf("%s: schema rejects a generated spec: %v", mem.name, errs)
		}
	}
}

// TestSchemaRejects checks that malformed specs fail for the right reason:
// the validator must report the keyword at the instance location given,
// and vsym must reject the file too.
func TestSchemaRejects(t *testing.T) {
	sch := gsst.CompileSchema(t)
	const (
		states = "states: [N, T]\n"
		groups = "groups: {p: 2}\n"
		init   = "init: N\n"
		trans  = "transitions: [{from: N, to: T}]\n"
	)
	tests := []struct {
		name string
		src  string
		// One failure: "instance-location keyword", or for propertyNames
		// "schema:schema-location keyword", since the validator reports
		// the instance location of a bad property name unreliably.
		want string
	}{
		{"not a mapping", "- states\n", "/ type"},
		{"missing init", states + groups + trans, "/ required"},
		{"missing transitions", states + groups + init, "/ required"},
		{"unknown key", states + groups + init + trans + "tranistions: []\n", "/ additionalProperties"},
		{"name a list", "name: [a]\n" + states + groups + init + trans, "/name type"},
		{"no states", "states: []\n" + groups + init + trans, "/states minItems"},
		{"states a mapping", "states: {N: 1}\n" + groups + init + trans, "/states type"},
		{"duplicate state", "states: [N, T, N]\n" + groups + init + trans, "/states uniqueItems"},
		{"state not a name", "states: [N, 1T]\n" + groups + init + trans, "/states/1 pattern"},
		{"state a number", "states: [N, 7]\n" + groups + init + trans, "/states/1 type"},
		{"no groups", states + "groups: {}\n" + init + trans, "/groups minProperties"},
		{"group size 0", states + "groups: {p: 0}\n" + init + trans, "/groups/p minimum"},
		{"group size quoted", states + "groups: {p: \"3\"}\n" + init + trans, "/groups/p type"},
		{"group size fraction", states + "groups: {p: 1.5}\n" + init + trans, "/groups/p type"},
		{"group size too big", states + "groups: {p: 1000001}\n" + init + trans, "/groups/p maximum"},
		{"group name", states + "groups: {2p: 1}\n" + init + trans, "schema:/properties/groups/propertyNames propertyNames"},
		{"range open below", states + "groups: {p: ..5}\n" + init + trans, "/groups/p pattern"},
		{"range from zero", states + "groups: {p: 0..}\n" + init + trans, "/groups/p pattern"},
		{"range not numbers", states + "groups: {p: 1..x}\n" + init + trans, "/groups/p pattern"},
		{"init a list twice", states + groups + "init: [N, N]\n" + trans, "/init oneOf"},
		{"init empty", states + groups + "init: {}\n" + trans, "/init minProperties"},
		{"init state not a name", states + groups + "init: N-1\n" + trans, "/init pattern"},
		{"init negative count", states + groups + "init: {p: {N: 3, T: -1}}\n" + trans, "/init/p/T minimum"},
		{"init empty counts", states + groups + "init: {p: {}}\n" + trans, "/init/p minProperties"},
		{"init count quoted", states + groups + "init: {p: {N: \"2\"}}\n" + trans, "/init/p/N type"},
		{"transitions a mapping", states + groups + init + "transitions: {from: N, to: T}\n", "/transitions type"},
		{"transition unknown key", states + groups + init + "transitions: [{from: N, to: T, gaurd: \"#T = 0\"}]\n", "/transitions/0 additionalProperties"},
		{"transition without to", states + groups + init + "transitions: [{from: N}]\n", "/transitions/0 required"},
		{"transition from not a name", states + groups + init + "transitions: [{from: N T, to: T}]\n", "/transitions/0/from pattern"},
		{"guard a number", states + groups + init + "transitions: [{from: N, to: T, guard: 3}]\n", "/transitions/0/guard type"},
		{"guard a list", states + groups + init + "transitions: [{from: N, to: T, guard: [\"#T = 0\"]}]\n", "/transitions/0/guard type"},
		{"guard empty mapping", states + groups + init + "transitions: [{from: N, to: T, guard: {}}]\n", "/transitions/0/guard minProperties"},
		{"guard key", states + groups + init + "transitions: [{from: N, to: T, guard: {\"p,,q\": \"#T = 0\"}}]\n", "schema:/definitions/transition/properties/guard/oneOf/1/propertyNames propertyNames"},
		{"guard unquoted #", states + groups + init + "transitions:\n  - from: N\n    to: T\n    guard:\n      p: #T = 0\n", "/transitions/0/guard/p type"},
		{"properties a list", states + groups + init + trans + "properties: [\"AG #T <= 1\"]\n", "/properties type"},
		{"property name", states + groups + init + trans + "properties: {-x: \"AG #T <= 1\"}\n", "schema:/properties/properties/propertyNames propertyNames"},
		{"property missing", states + groups + init + trans + "properties:\n  p: #T = 0\n", "/properties/p type"},
		{"params a string", "params: n\n" + states + groups + init + trans, "/params type"},
		{"param twice", "params: [n, n]\n" + states + groups + init + trans, "/params uniqueItems"},
		{"param not a name", "params: [2n]\n" + states + groups + init + trans, "/params/0 pattern"},
		{"assume a list", "params: [n]\nassume: [\"n > 1\"]\n" + states + groups + init + trans, "/assume type"},
		{"shared a list", "shared: [x]\n" + states + groups + init + trans, "/shared type"},
		{"shared without init", "shared: {x: {type: bool}}\n" + states + groups + init + trans, "/shared/x required"},
		{"shared unknown key", "shared: {x: {type: bool, init: true, max: 3}}\n" + states + groups + init + trans, "/shared/x additionalProperties"},
		{"shared type int", "shared: {x: {type: int, init: 0}}\n" + states + groups + init + trans, "/shared/x/type oneOf"},
		{"shared empty enumeration", "shared: {x: {type: [], init: a}}\n" + states + groups + init + trans, "/shared/x/type oneOf"},
		{"shared init a list", "shared: {x: {type: bool, init: [true]}}\n" + states + groups + init + trans, "/shared/x/init anyOf"},
		{"size expression with dots", "params: [n]\n" + states + "groups: {p: \"n..\"}\n" + init + trans, "/groups/p oneOf"},
		{"update a number", states + groups + init + "transitions: [{from: N, to: T, update: 3}]\n", "/transitions/0/update oneOf"},
		{"update empty mapping", states + groups + init + "transitions: [{from: N, to: T, update: {}}]\n", "/transitions/0/update oneOf"},
		{"broadcast a string", states + groups + init + "transitions: [{from: N, to: T, broadcast: \"T -> N\"}]\n", "/transitions/0/broadcast type"},
		{"broadcast empty", states + groups + init + "transitions: [{from: N, to: T, broadcast: []}]\n", "/transitions/0/broadcast minItems"},
		{"transfer without arrow", states + groups + init + "transitions:\n  - {from: N, to: T, broadcast: [T N]}\n", "/transitions/0/broadcast/0 pattern"},
		{"rendezvous a mapping", states + groups + init + trans + "rendezvous: {parts: []}\n", "/rendezvous type"},
		{"rendezvous one part", states + groups + init + trans + "rendezvous: [{parts: [{from: N, to: T}]}]\n", "/rendezvous/0/parts minItems"},
		{"rendezvous without parts", states + groups + init + trans + "rendezvous: [{guard: \"true\"}]\n", "/rendezvous/0 required"},
		{"part without to", states + groups + init + trans + "rendezvous: [{parts: [{from: N, to: T}, {from: N}]}]\n", "/rendezvous/0/parts/1 required"},
		{"part empty groups", states + groups + init + trans + "rendezvous: [{parts: [{from: N, to: T}, {from: N, to: T, groups: []}]}]\n", "/rendezvous/0/parts/1/groups minItems"},
		{"rendezvous guard mapping", states + groups + init + trans + "rendezvous: [{parts: [{from: N, to: T}, {from: N, to: T}], guard: {p: \"true\"}}]\n", "/rendezvous/0/guard type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			if _, err := gsst.Parse("bad.yaml", src); err == nil {
				t.Fatalf("vsym accepts the malformed spec:\n%s", src)
			}
			errs := gsst.SchemaErrors(t, sch, src)
			if errs == nil {
				t.Fatalf("schema accepts the malformed spec:\n%s", src)
			}
			if !slices.Contains(errs, tt.want) {
				t.Errorf("schema rejects for other reasons: %q, want %q", errs, tt.want)
			}
		})
	}
}

// TestSchemaAcceptsWhatVsymAccepts checks on random mutants of valid
// specs that the schema never rejects a file vsym accepts (an editor must
// not flag a valid spec), and that it rejects many of the others.
func TestSchemaAcceptsWhatVsymAccepts(t *testing.T) {
	sch := gsst.CompileSchema(t)
	var seeds [][]byte
	for _, name := range specs.List() {
		src, err := specs.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, src)
	}
	for _, gen := range []func() ([]byte, error){
		func() ([]byte, error) { return specs.GRW(3, 2, 4) },
		func() ([]byte, error) { return specs.ASR(5, 2, 2) },
	} {
		src, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, src)
	}
	// Variants that exercise every form of the format.
	seeds = append(seeds, []byte(`name: forms
states: [N, T, C, "true", yes]
groups: {a: 2, b: 1, c: 1}
init: {a: {N: 1, T: 1}, b: C, c: "true"}
transitions:
  - {from: N, to: T, guard: true}
  - {from: T, to: C, guard: {"a, b": "#C = 0", c: "#C[a] = 0"}}
  - {from: C, to: N, guard: "n > 1"}
  - {from: "true", to: N}
  - from: yes
    to: N
    guard: |
      #C = 0 &
        #N >= 1
properties:
  p: true
  can-go: "EF #C >= 1"
`))
	seeds = append(seeds, constructSeeds(t)...)
	for _, src := range seeds {
		if _, err := gsst.Parse("seed.yaml", src); err != nil {
			t.Fatalf("seed does not parse: %v\n%s", err, src)
		}
	}
	rng := rand.New(rand.NewSource(11))
	// 3000 mutants; -short takes the first 1000: each of the three
	// outcomes counted below first comes by the fourth mutant, and the
	// proportions stay (1000: 343 valid, 583 and 74 rejected).
	mutants := 3000
	if testing.Short() {
		mutants = 1000
	}
	var accepted, bothReject, vsymOnly int
	for i := 0; i < mutants; i++ {
		src := mutate(t, rng, seeds[rng.Intn(len(seeds))])
		_, perr := gsst.Parse("m.yaml", src)
		var errs []string
		if _, err := gsst.YAMLToJSON(src); err == nil {
			errs = gsst.SchemaErrors(t, sch, src)
		}
		switch {
		case perr == nil && errs != nil:
			t.Fatalf("mutant %d: vsym accepts it, the schema rejects it: %v\n%s", i, errs, src)
		case perr == nil:
			accepted++
		case errs != nil:
			bothReject++
		default:
			vsymOnly++
		}
	}
	t.Logf("%d mutants: %d valid, %d rejected by both, %d by vsym only", mutants, accepted, bothReject, vsymOnly)
	if accepted < mutants/20 || bothReject < mutants/5 {
		t.Errorf("mutants too one-sided to test anything: %d valid, %d rejected by both", accepted, bothReject)
	}
}

// mutate applies one to three random changes to the YAML tree of src.
func mutate(t *testing.T, rng *rand.Rand, src []byte) []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	var nodes []*yaml.Node
	var collect func(n *yaml.Node)
	collect = func(n *yaml.Node) {
		nodes = append(nodes, n)
		for _, c := range n.Content {
			collect(c)
		}
	}
	collect(doc.Content[0])
	scalars := []yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "0"},
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"},
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "2"},
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "-1"},
		{Kind: yaml.ScalarNode, Tag: "!!int", Value: "0x3"},
		{Kind: yaml.ScalarNode, Tag: "!!float", Value: "2.5"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "2", Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"},
		{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"},
		{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "N"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "T"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x_1"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "1x"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a b"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: ""},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "#C = 0", Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "AG #C <= 1", Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x := x + 1", Style: yaml.DoubleQuotedStyle},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "N -> T"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "n - f"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "0..3"},
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: "bool"},
		{Kind: yaml.MappingNode, Tag: "!!map"},
		{Kind: yaml.SequenceNode, Tag: "!!seq"},
	}
	for k := 1 + rng.Intn(3); k > 0; k-- {
		n := nodes[rng.Intn(len(nodes))]
		switch op := rng.Intn(5); {
		case op <= 1: // replace a node
			*n = scalars[rng.Intn(len(scalars))]
		case op == 2 && n.Kind == yaml.MappingNode && len(n.Content) >= 2: // drop an entry
			i := 2 * rng.Intn(len(n.Content)/2)
			n.Content = slices.Delete(n.Content, i, i+2)
		case op == 3 && n.Kind == yaml.MappingNode: // add an entry
			keys := []string{"name", "guard", "from", "to", "extra", "p", "N", "g1", "a, b", "bad-key",
				"update", "broadcast", "params", "assume", "shared", "rendezvous", "type", "init", "parts", "groups"}
			key := keys[rng.Intn(len(keys))]
			val := scalars[rng.Intn(len(scalars))]
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &val)
		case op == 4 && n.Kind == yaml.SequenceNode && len(n.Content) > 0: // drop an element
			i := rng.Intn(len(n.Content))
			n.Content = slices.Delete(n.Content, i, i+1)
		}
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaCoversTheFormatPage checks that the schema describes exactly
// the keys of docs/gsst-format.md, each with a description, and requires
// the keys the page says are required.
func TestSchemaCoversTheFormatPage(t *testing.T) {
	page, err := os.ReadFile("../docs/gsst-format.md")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Required    []string             `json:"required"`
		Properties  map[string]described `json:"properties"`
		Definitions map[string]struct {
			Required   []string             `json:"required"`
			Properties map[string]described `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(gsst.Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	// The table of top-level keys: | `key` | yes/no | value |
	row := regexp.MustCompile("(?m)^\\| `([a-z]+)` +\\| (yes|no) +\\|")
	var keys, required []string
	for _, m := range row.FindAllStringSubmatch(string(page), -1) {
		keys = append(keys, m[1])
		if m[2] == "yes" {
			required = append(required, m[1])
		}
	}
	if len(keys) < 6 {
		t.Fatalf("found only %v in the table of top-level keys", keys)
	}
	got := describedKeys(t, "key", schema.Properties)
	slices.Sort(keys)
	slices.Sort(required)
	slices.Sort(schema.Required)
	if !slices.Equal(keys, got) {
		t.Errorf("schema keys %v, the page lists %v", got, keys)
	}
	if !slices.Equal(required, schema.Required) {
		t.Errorf("schema requires %v, the page %v", schema.Required, required)
	}
	// Transitions: "keys `from`, `to` (both required), `guard`, `update`
	// and `broadcast` (optional".
	if !strings.Contains(string(page), "keys `from`, `to` (both required),\n`guard`, `update` and `broadcast` (optional") {
		t.Fatal("the page no longer lists the transition keys as this test expects")
	}
	tr := schema.Definitions["transition"]
	trKeys := describedKeys(t, "transition key", tr.Properties)
	slices.Sort(tr.Required)
	if !slices.Equal(trKeys, []string{"broadcast", "from", "guard", "name", "to", "update"}) || !slices.Equal(tr.Required, []string{"from", "to"}) {
		t.Errorf("transition keys %v, required %v", trKeys, tr.Required)
	}
}

type described struct {
	Description string `json:"description"`
}

// describedKeys returns the sorted keys of props, reporting those without
// a description.
func describedKeys(t *testing.T, what string, props map[string]described) []string {
	var keys []string
	for k, p := range props {
		keys = append(keys, k)
		if strings.TrimSpace(p.Description) == "" {
			t.Errorf("%s %s has no description", what, k)
		}
	}
	slices.Sort(keys)
	return keys
}
