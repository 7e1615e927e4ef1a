package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesCurrent regenerates z3api.c and z3api.h from the
// package's Go files and the installed Z3 headers and compares them with
// the committed ones: a Z3 function the package calls without a
// forwarder (which would not compile: z3api.h declares it with an error
// attribute), or one the
// package no longer calls, fails here with what to run.
func TestGeneratedFilesCurrent(t *testing.T) {
	pkg := filepath.Join("..", "..")
	src, hdr, err := generate(pkg, "/usr/include")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"z3api.c": src, "z3api.h": hdr} {
		got, err := os.ReadFile(filepath.Join(pkg, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("presburger/z3/%s is not what mkapi writes now: run go generate in presburger/z3", name)
		}
	}
}

// TestForwardedFunctions checks the generator on what it must find: the
// functions the Go code calls (Z3_mk_add), those only the C preambles
// call (Z3_mk_context, in newContext), Z3_get_version, which the loader
// calls, and a declaration with an unnamed parameter
// (Z3_mk_seq_last_index), which gets a name of its own.
func TestForwardedFunctions(t *testing.T) {
	api, err := headers("/usr/include")
	if err != nil {
		t.Fatal(err)
	}
	if d := api["Z3_mk_seq_last_index"]; d.params != "Z3_context c, Z3_ast a1, Z3_ast substr" || strings.Join(d.args, ",") != "c,a1,substr" {
		t.Errorf("Z3_mk_seq_last_index: params %q, args %q", d.params, d.args)
	}
	if d := api["Z3_mk_exists_const"]; d.ret != "Z3_ast" || len(d.args) != 7 {
		t.Errorf("Z3_mk_exists_const: %+v", d)
	}
	names, err := used(filepath.Join("..", ".."), api)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Z3_mk_add", "Z3_mk_context", "Z3_get_version", "Z3_fixedpoint_query"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("%s is not forwarded", want)
		}
	}
	for _, n := range names {
		if n == "Z3_mk_sub" {
			t.Errorf("Z3_mk_sub is forwarded, but no file of the package calls it")
		}
	}
}
