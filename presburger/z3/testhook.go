package z3

/*
#include <stdlib.h>
#include "z3api.h"
*/
import "C"

import (
	"strconv"
	"unsafe"

	"github.com/vsym/vsym/presburger"
)

// provokeError makes Z3 report an error (adding an integer to a boolean)
// in a fresh context and returns what the error handler recorded. It
// exists for the tests, which cannot use cgo themselves, to check that a
// Z3 error becomes a Go error instead of ending the process.
func provokeError() error {
	z, err := newZctx()
	if err != nil {
		return err
	}
	defer z.close()
	args := []C.Z3_ast{z.num(1), C.Z3_mk_true(z.c)}
	C.Z3_mk_add(z.c, 2, &args[0])
	return z.fail()
}

// readBack parses smt, SMT-LIB2 assertions over the integer constants
// x0..x(nvars-1), which stand for presburger.Var(0..nvars-1), and
// translates their conjunction back as Project translates its result.
// It lets the tests give the back translation inputs (huge numerals,
// for one) that no projection of theirs would make Z3 produce.
func readBack(smt string, nvars int) (presburger.Formula, error) {
	z, err := newZctx()
	if err != nil {
		return nil, err
	}
	defer z.close()
	names := make([]C.Z3_symbol, nvars)
	decls := make([]C.Z3_func_decl, nvars)
	for i := range nvars {
		x := z.declare(presburger.Var(i))
		cs := C.CString("x" + strconv.Itoa(i))
		names[i] = C.Z3_mk_string_symbol(z.c, cs)
		C.free(unsafe.Pointer(cs))
		decls[i] = C.Z3_get_app_decl(z.c, C.Z3_to_app(z.c, x))
	}
	src := C.CString(smt)
	defer C.free(unsafe.Pointer(src))
	var pn *C.Z3_symbol
	var pd *C.Z3_func_decl
	if nvars > 0 {
		pn, pd = &names[0], &decls[0]
	}
	v := C.Z3_parse_smtlib2_string(z.c, src, 0, nil, nil, C.uint(nvars), pn, pd)
	if err := z.fail(); err != nil {
		return nil, err
	}
	C.Z3_ast_vector_inc_ref(z.c, v)
	defer C.Z3_ast_vector_dec_ref(z.c, v)
	var fs []presburger.Formula
	for i := C.uint(0); i < C.Z3_ast_vector_size(z.c, v); i++ {
		f, err := z.back(C.Z3_ast_vector_get(z.c, v, i))
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return presburger.Conj(fs...), z.fail()
}
