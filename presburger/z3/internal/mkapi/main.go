// Command mkapi writes z3api.c and z3api.h of package z3 (go generate
// runs it there): the C side of loading libz3 on first use.
//
// Package z3 does not link libz3: a process that never asks Z3 anything
// should not pay for loading a 23 MB C++ library at start. Its Go code
// and C preambles still call the Z3 API by name (C.Z3_mk_add); z3api.c
// defines each function they call, with the signature of the Z3
// headers, as a forwarder through a pointer that the package fills with
// dlsym once it has opened the library. z3api.h is what the package
// includes instead of z3.h: the Z3 headers, the table of forwarders, and
// every other function of the API declared with GCC's error attribute,
// so that a call the generated files do not cover fails to compile with
// a message that says to run go generate, rather than to link with
// "undefined reference". The test of this package checks that the
// committed files are what mkapi writes now.
//
// Usage, from presburger/z3:
//
//	go run ./internal/mkapi [-I /usr/include]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	include := flag.String("I", "/usr/include", "directory of the Z3 headers (z3.h, z3_api.h, ...)")
	flag.Parse()
	src, hdr, err := generate(".", *include)
	if err == nil {
		err = os.WriteFile("z3api.c", src, 0o644)
	}
	if err == nil {
		err = os.WriteFile("z3api.h", hdr, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkapi:", err)
		os.Exit(1)
	}
}

// decl is a function of the Z3 API as its header declares it.
type decl struct {
	ret    string   // return type
	name   string   // Z3_...
	params string   // parameter list, as written
	args   []string // parameter names, in order
}

// The parameter list of a declaration has no parentheses in the Z3
// headers (function types are typedefs), so it ends at the first ')'.
var (
	declRE  = regexp.MustCompile(`(?m)^[ \t]*([A-Za-z_][\w \t*]*?)\s+Z3_API\s+(Z3_\w+)\s*\(([^;()]*)\)\s*;`)
	paramRE = regexp.MustCompile(`(\w+)\s*(\[\s*\])?$`)
	callRE  = regexp.MustCompile(`\b(Z3_\w+)\s*\(`)
	cComRE  = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
)

// headers reads the declarations of every function of the Z3 C API from
// the z3_*.h files of dir.
func headers(dir string) (map[string]decl, error) {
	files, err := filepath.Glob(filepath.Join(dir, "z3_*.h"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Z3 headers (z3_*.h) in %s: install libz3-dev", dir)
	}
	out := map[string]decl{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		text := cComRE.ReplaceAllString(string(b), "")
		for _, m := range declRE.FindAllStringSubmatch(text, -1) {
			d := decl{ret: strings.Join(strings.Fields(m[1]), " "), name: m[2], params: strings.Join(strings.Fields(m[3]), " ")}
			if d.params != "void" && d.params != "" {
				var params []string
				for i, p := range strings.Split(d.params, ",") {
					p = strings.TrimSpace(p)
					pm := paramRE.FindStringSubmatch(p)
					if pm == nil {
						return nil, fmt.Errorf("%s: cannot read parameter %q of %s", f, p, d.name)
					}
					name := pm[1]
					if isType(name) || strings.HasSuffix(p, "*") {
						// An unnamed parameter (Z3_mk_seq_last_index has one).
						name = fmt.Sprintf("a%d", i)
						p += " " + name
					}
					params = append(params, p)
					d.args = append(d.args, name)
				}
				d.params = strings.Join(params, ", ")
			} else {
				d.params = "void"
			}
			out[d.name] = d
		}
	}
	return out, nil
}

// isType reports whether the last word of a parameter is part of its
// type rather than its name: the Z3 headers name no parameter Z3_...,
// nor after a C type keyword.
func isType(word string) bool {
	switch word {
	case "const", "unsigned", "signed", "int", "long", "short", "char", "bool", "double", "float", "void", "int64_t", "uint64_t", "size_t":
		return true
	}
	return strings.HasPrefix(word, "Z3_")
}

// used returns the functions of api that the Go files of the package in
// dir call, from Go (C.Z3_...) or from a cgo preamble, in name order.
// Z3_get_version is always among them: the package checks the version
// of the library it opens.
func used(dir string, api map[string]decl) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	names := map[string]bool{"Z3_get_version": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT || g.Doc == nil {
				continue
			}
			for _, s := range g.Specs {
				if p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value); p == "C" {
					preamble := cComRE.ReplaceAllString(g.Doc.Text(), "")
					for _, m := range callRE.FindAllStringSubmatch(preamble, -1) {
						if _, ok := api[m[1]]; ok {
							names[m[1]] = true
						}
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == "C" {
					if _, ok := api[s.Sel.Name]; ok {
						names[s.Sel.Name] = true
					}
				}
			}
			return true
		})
	}
	out := make([]string, 0, len(names))
	for n := range names {
		if _, ok := api[n]; !ok {
			return nil, fmt.Errorf("%s is not declared in the Z3 headers", n)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

const header = "// Code generated by \"go run ./internal/mkapi\" from the Z3 headers; DO NOT EDIT.\n\n"

// generate returns z3api.c and z3api.h for the package in dir and the
// Z3 headers in include.
func generate(dir, include string) (src, hdr []byte, err error) {
	api, err := headers(include)
	if err != nil {
		return nil, nil, err
	}
	names, err := used(dir, api)
	if err != nil {
		return nil, nil, err
	}
	var c bytes.Buffer
	c.WriteString(header)
	c.WriteString(`// The Z3 functions package z3 calls, each forwarded through a pointer
// that vsymZ3Table names, filled by dlsym once libz3 is open (load.go).
// None is called before that: every call needs a context, and contexts
// are made only after the library is loaded and checked.

#define VSYM_Z3API_C
#include "z3api.h"

`)
	for _, n := range names {
		d := api[n]
		fmt.Fprintf(&c, "static %s (*fn_%s)(%s);\n", d.ret, n, d.params)
		call := fmt.Sprintf("fn_%s(%s)", n, strings.Join(d.args, ", "))
		if d.ret != "void" {
			call = "return " + call
		}
		fmt.Fprintf(&c, "%s Z3_API %s(%s) {\n\t%s;\n}\n\n", d.ret, n, d.params, call)
	}
	c.WriteString("const struct vsymZ3Fn vsymZ3Table[] = {\n")
	for _, n := range names {
		fmt.Fprintf(&c, "\t{%q, (void **)&fn_%s, (void *)%s},\n", n, n, n)
	}
	c.WriteString("};\n\nconst int vsymZ3TableLen = sizeof vsymZ3Table / sizeof vsymZ3Table[0];\n")

	var h bytes.Buffer
	h.WriteString(header)
	h.WriteString(`// The Z3 API for package z3: its Go files include this file, not z3.h.

#ifndef VSYM_Z3API_H
#define VSYM_Z3API_H

#include <z3.h>
#include <z3_version.h>

// vsymZ3Fn is a function of the Z3 API that z3api.c forwards: its name,
// the pointer the forwarder calls through, and the forwarder itself.
struct vsymZ3Fn {
	const char *name;
	void **slot;
	void *self;
};

extern const struct vsymZ3Fn vsymZ3Table[];
extern const int vsymZ3TableLen;

#ifndef VSYM_Z3API_C
// The functions of the Z3 API that z3api.c does not forward. Package z3
// does not link libz3, so a call to one of these would fail at link time
// with "undefined reference"; declared so, it fails to compile with what
// to do. go generate in presburger/z3 forwards every function the
// package calls.
#define vsymNotForwarded __attribute__((error("this Z3 function has no forwarder in z3api.c: run go generate in presburger/z3")))
`)
	var rest []string
	for n := range api {
		if !slices.Contains(names, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	for _, n := range rest {
		d := api[n]
		fmt.Fprintf(&h, "%s %s(%s) vsymNotForwarded;\n", d.ret, n, d.params)
	}
	h.WriteString("#endif\n\n#endif\n")
	return c.Bytes(), h.Bytes(), nil
}
