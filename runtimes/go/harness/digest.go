// The checksum of a Go child, by hand: 64-bit FNV-1a (offset 0xcbf29ce484222325, prime
// 0x100000001b3), the Rust children's, of
//   - `ser`: the output's bytes (FNV1a);
//   - `de`: a structural walk of the last decoded value, which each model writes by hand in a
//     fixed field order (no reflection, no library), feeding these bytes (Digest's methods):
//     true 't'   false 'F'
//     whole number 'i' + 8 bytes, little-endian
//     double 'f' + the 8 bytes of its IEEE 754 bits, little-endian
//     string 's' + its length in bytes (4 bytes, little-endian) + its bytes
//     array '[' + its count (4 bytes) + each item;  object '{' + its field count + each value
//
// Every value is tagged and every string and container carries its length, so two values with
// the same walk are the same value; the same model decoded by any library gives the same digest.
package harness

import "math"

const (
	fnvOffset = 0xcbf29ce484222325
	fnvPrime  = 0x100000001b3
)

// FNV1a is 64-bit FNV-1a of b.
func FNV1a(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// Digest is a structural walk being hashed.
type Digest struct{ h uint64 }

// NewDigest is an empty walk.
func NewDigest() *Digest { return &Digest{h: fnvOffset} }

// Sum is the walk's digest.
func (d *Digest) Sum() uint64 { return d.h }

func (d *Digest) byte(c byte) { d.h = (d.h ^ uint64(c)) * fnvPrime }

func (d *Digest) raw32(v uint32) {
	for i := 0; i < 4; i++ {
		d.byte(byte(v >> (8 * i)))
	}
}

func (d *Digest) raw64(v uint64) {
	for i := 0; i < 8; i++ {
		d.byte(byte(v >> (8 * i)))
	}
}

// Bool is true or false.
func (d *Digest) Bool(v bool) {
	if v {
		d.byte('t')
	} else {
		d.byte('F')
	}
}

// Int is a whole number.
func (d *Digest) Int(v int64) { d.byte('i'); d.raw64(uint64(v)) }

// Float is a double.
func (d *Digest) Float(v float64) { d.byte('f'); d.raw64(math.Float64bits(v)) }

// String is a string.
func (d *Digest) String(s string) {
	d.byte('s')
	d.raw32(uint32(len(s)))
	for i := 0; i < len(s); i++ {
		d.byte(s[i])
	}
}

// Array starts an array of n items.
func (d *Digest) Array(n int) { d.byte('['); d.raw32(uint32(n)) }

// Object starts an object of n fields.
func (d *Digest) Object(n int) { d.byte('{'); d.raw32(uint32(n)) }
