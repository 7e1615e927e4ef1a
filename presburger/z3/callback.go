package z3

// This file holds only the exported error callback: a file with an
// //export directive may only declare, never define, C functions in its
// preamble, so the handler installation lives in context.go.

/*
#include "z3api.h"
*/
import "C"

import (
	"fmt"
	"sync"
)

// live maps each open Z3_context to its Go wrapper, so that the error
// handler (which only receives the Z3_context) can record the error on the
// right call. Z3 calls the handler synchronously on the thread of the
// failing API call, so the wrapper is always alive while it runs.
var live sync.Map // uintptr -> *zctx

//export vsymZ3Error
func vsymZ3Error(c C.Z3_context, code C.Z3_error_code) {
	v, ok := live.Load(key(c))
	if !ok {
		return
	}
	// Z3_get_error_msg returns the exception text for Z3_EXCEPTION and a
	// fixed description for the other codes.
	v.(*zctx).setErr(fmt.Errorf("z3: %s (error code %d)", C.GoString(C.Z3_get_error_msg(c, code)), int(code)))
}
