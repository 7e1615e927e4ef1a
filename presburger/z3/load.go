package z3

//go:generate go run ./internal/mkapi

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include "z3api.h"

// openZ3 opens the shared library at path and fills the pointer of every
// forwarder of z3api.c with the library's function of that name, all or
// none. It returns 0, or -1 with the reason (dlerror's text) in msg.
// dlsym on the handle searches the library and its dependencies only,
// never the program, so a pointer cannot come back to our own
// forwarder; the check says so out loud rather than loop forever if a
// loader ever did.
static int openZ3(const char *path, char *msg, size_t n) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(msg, n, "%s", dlerror());
		return -1;
	}
	void *fn[vsymZ3TableLen];
	for (int i = 0; i < vsymZ3TableLen; i++) {
		dlerror();
		fn[i] = dlsym(h, vsymZ3Table[i].name);
		if (fn[i] == NULL || fn[i] == vsymZ3Table[i].self) {
			const char *e = dlerror();
			if (fn[i] != NULL) {
				snprintf(msg, n, "%s resolves to vsym's own forwarder", vsymZ3Table[i].name);
			} else {
				snprintf(msg, n, "%s", e != NULL ? e : "a function is missing");
			}
			dlclose(h);
			return -1;
		}
	}
	for (int i = 0; i < vsymZ3TableLen; i++) {
		*vsymZ3Table[i].slot = fn[i];
	}
	return 0;
}
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/vsym/vsym/errkind"
)

// The library is opened by name, as the dynamic linker finds it:
// Debian's libz3-4 installs the first, the unversioned name is that of
// the development link and of other builds of Z3. LibraryEnv, when set,
// names the one file to open instead.
var libraryNames = []string{"libz3.so.4", "libz3.so"}

// LibraryEnv is the environment variable that names the Z3 shared
// library to load instead of the system's.
const LibraryEnv = "VSYM_LIBZ3"

// A LoadError says why the Z3 library could not be used: it was not
// found, lacks a function vsym calls, or is not the version vsym was
// built against. Every query of a process that meets it fails with it;
// the rest of vsym, which needs no solver, works without the library.
type LoadError struct {
	Library string // the file or name tried
	Reason  string // the dynamic loader's message, or the version found
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("z3: cannot use the Z3 library %s: %s (vsym needs Z3 %d.%d: install Debian's libz3-4, or name the library in %s)",
		e.Library, e.Reason, C.Z3_MAJOR_VERSION, C.Z3_MINOR_VERSION, LibraryEnv)
}

// Is makes a LoadError of kind errkind.Unknown: without a solver there
// is no answer, as when the solver gives up.
func (e *LoadError) Is(target error) bool { return target == errkind.Unknown }

// loadLibrary opens libz3 on the first query of the process, not when
// the process starts: loading it (23 MB of C++, its relocations and
// static constructors) costs about 6 ms, a fifth of a small "vsym
// prove", and most commands never ask Z3 anything.
//
// The forwarders of z3api.c are global definitions of the Z3 API's
// names in our program, and libz3 calls some of its own API functions
// through its symbol table (it has relocations for 691 of them). Were
// the program to export our definitions, the dynamic linker would bind
// those calls of libz3 to them (interposition). It does not today (the
// Go linker passes no -rdynamic: "nm -D vsym" lists no Z3_ name), and it
// would be safe if it did: each forwarder calls, through its pointer,
// the very function of libz3 the call would have reached (dlsym on the
// library's handle never finds the program's definitions), and libz3
// makes no such call before the pointers are filled (its static
// constructors do not use its C API; every other call needs a context,
// and contexts are made only after loadLibrary succeeds).
var loadLibrary = sync.OnceValue(func() error {
	names := libraryNames
	if p := os.Getenv(LibraryEnv); p != "" {
		names = []string{p}
	}
	var first *LoadError
	for _, name := range names {
		err := open(name)
		if err == nil {
			return checkVersion(name)
		}
		if first == nil {
			first = err
		}
	}
	if len(names) > 1 {
		first.Library = strings.Join(names, " or ")
	}
	return first
})

func open(name string) *LoadError {
	path := C.CString(name)
	defer C.free(unsafe.Pointer(path))
	var msg [512]C.char
	if C.openZ3(path, &msg[0], C.size_t(len(msg))) != 0 {
		// dlerror's text starts with the name it was given.
		return &LoadError{Library: name, Reason: strings.TrimPrefix(C.GoString(&msg[0]), name+": ")}
	}
	return nil
}

// checkVersion refuses a library whose major and minor version differ
// from those of the headers vsym was built with: the forwarders carry
// the headers' signatures, and Spacer's answers and parameters change
// between versions.
func checkVersion(name string) error {
	var major, minor, build, rev C.uint
	C.Z3_get_version(&major, &minor, &build, &rev)
	return versionError(name, uint(major), uint(minor), uint(build))
}

// versionError is the error of checkVersion for a library of version
// major.minor.build, or nil.
func versionError(name string, major, minor, build uint) error {
	if major != C.Z3_MAJOR_VERSION || minor != C.Z3_MINOR_VERSION {
		return &LoadError{Library: name, Reason: fmt.Sprintf("it is Z3 %d.%d.%d, vsym was built with the headers of Z3 %d.%d.%d",
			major, minor, build, C.Z3_MAJOR_VERSION, C.Z3_MINOR_VERSION, C.Z3_BUILD_NUMBER)}
	}
	return nil
}
