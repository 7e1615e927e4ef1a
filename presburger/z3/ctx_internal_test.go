package z3

import "testing"

// BenchmarkContext measures the fixed cost of one Z3 context (creation,
// error handler, deletion), paid by every Solve and Project call.
func BenchmarkContext(b *testing.B) {
	for i := 0; i < b.N; i++ {
		z, err := newZctx()
		if err != nil {
			b.Fatal(err)
		}
		z.close()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "contexts/s")
}

// TestErrorHandler checks that a Z3 error is returned as a Go error (Z3's
// default handler would exit the process) and that the next call in a
// new context starts clean.
func TestErrorHandler(t *testing.T) {
	for i := 0; i < 2; i++ {
		err := provokeError()
		if err == nil {
			t.Fatal("no error recorded")
		}
		t.Log(err)
	}
	z, err := newZctx()
	if err != nil {
		t.Fatal(err)
	}
	defer z.close()
	z.num(3)
	if err := z.fail(); err != nil {
		t.Errorf("fresh context has error %v", err)
	}
}
