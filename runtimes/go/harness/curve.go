// Curve mode (`--window W`, docs/child-protocol.md; schema::curve declares it): the batch of N
// operations runs in one loop that reads the clock after operation i when i is in the schedule
// (a checkpoint m·10^e with m one of 1, 2, 3, 5, 7, 15, a multiple of W, or N), into a slice made
// before the clock; the read after op 1 is `first`, the one after op N `done`. `de` cannot hold N
// copies nor N values: one working copy (made before the clock) is refreshed before each call by
// copying the document's bytes into it (no allocation), and each decoded value is dropped when
// the next replaces it, the last kept for the check, whatever `--drops` says. `ser` calls the
// library on its one value as outside curve mode. After `checked` the harness times 1,000
// back-to-back clock reads, and prints the curve line before its protocol line.
package harness

import (
	"slices"
	"strconv"
)

type curve struct {
	batch int
	ops   []int
	ns    []int64
}

func newCurve(batch, window int) *curve {
	ops := Schedule(batch, window)
	return &curve{batch: batch, ops: ops, ns: make([]int64, len(ops))}
}

// Schedule is every operation count after which a curve child reads its clock, ascending (what
// schema::curve::schedule gives): each checkpoint m·10^e (m one of 1, 2, 3, 5, 7, 15) up to
// batch, each multiple of window, and batch.
func Schedule(batch, window int) []int {
	set := map[int]bool{batch: true}
	for n := window; n <= batch; n += window {
		set[n] = true
	}
	for decade := 1; decade <= batch; decade *= 10 {
		for _, m := range []int{1, 2, 3, 5, 7, 15} {
			if m*decade <= batch {
				set[m*decade] = true
			}
		}
	}
	ops := make([]int, 0, len(set))
	for n := range set {
		ops = append(ops, n)
	}
	slices.Sort(ops)
	return ops
}

// curveDe runs the `de` batch, reading the clock into c.ns after each operation of c.ops; it
// returns the last decoded value.
func curveDe[T any](c *curve, decode func([]byte) (*T, error), data, work []byte) (*T, error) {
	var out *T
	var err error
	k, at, last := 0, c.ops[0], len(c.ops)-1
	for i := 1; i <= c.batch; i++ {
		copy(work, data) // the working copy, refreshed: the document's bytes into its own memory
		if out, err = decode(work); err != nil {
			return nil, err
		}
		if i == at {
			c.ns[k] = nanotime()
			if k < last {
				k++
				at = c.ops[k]
			}
		}
	}
	return out, nil
}

// curveSer runs the `ser` batch as curveDe does; it returns the last output.
func curveSer[T any](c *curve, encode func(*T) ([]byte, error), value *T) ([]byte, error) {
	var out []byte
	var err error
	k, at, last := 0, c.ops[0], len(c.ops)-1
	for i := 1; i <= c.batch; i++ {
		if out, err = encode(value); err != nil {
			return nil, err
		}
		if i == at {
			c.ns[k] = nanotime()
			if k < last {
				k++
				at = c.ops[k]
			}
		}
	}
	return out, nil
}

// clock1000 is the time of 1,000 back-to-back clock reads, ns.
func clock1000() int64 {
	start := nanotime()
	for i := 0; i < 1000; i++ {
		nanotime()
	}
	return nanotime() - start
}

// line appends the curve line, `\n` included: no spaces, whole numbers.
func (c *curve) line(b []byte, clock1000Ns int64) []byte {
	b = append(b, `{"ops":[`...)
	for i, n := range c.ops {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, `],"ns":[`...)
	for i, n := range c.ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	b = append(b, `],"clock_1000_ns":`...)
	b = strconv.AppendInt(b, clock1000Ns, 10)
	return append(b, "}\n"...)
}
