package z3

/*
#include <z3.h>
*/
import "C"

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
