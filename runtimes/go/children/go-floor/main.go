// The Go floor (docs/child-protocol.md): the runtime's start and the harness, with no library:
// `de` hands its copy back, `ser` the input's bytes; its checksum is FNV-1a of the input's bytes
// for both ops, and its check file the input itself.
package main

import "thaw/runtimes/go/harness"

func main() {
	start := harness.Now()
	harness.Run(start, harness.Model[[]byte]{}, harness.Codec[[]byte]{
		Init:    func() {},
		De:      func(b []byte) (*[]byte, error) { return &b, nil },
		Ser:     func(v *[]byte) ([]byte, error) { return *v, nil },
		Version: harness.GoVersion,
	}, true)
}
