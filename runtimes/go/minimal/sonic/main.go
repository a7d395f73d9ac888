// The reference for the cold child `sonic` (scripts/first-call-vs-minimal.py --go): a Go main
// that reads one Users document, makes one copy of it, and decodes it once with bytedance/sonic (its default configuration),
// and nothing else of the protocol: no harness, no arguments but the document's path. It
// prints three CLOCK_MONOTONIC reads (runtime.nanotime, the harness's clock): at main, before the
// call and after it.
package main

import (
	"os"
	"strconv"
	_ "unsafe" // go:linkname

	"github.com/bytedance/sonic"

	"thaw/runtimes/go/model"
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

func main() {
	start := nanotime()
	document, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	copied := append([]byte(nil), document...)
	before := nanotime()
	var v model.Users
	if err := sonic.Unmarshal(copied, &v); err != nil {
		panic(err)
	}
	after := nanotime()
	line := []byte(`{"main":`)
	line = strconv.AppendInt(line, start, 10)
	line = append(line, `,"before":`...)
	line = strconv.AppendInt(line, before, 10)
	line = append(line, `,"after":`...)
	line = strconv.AppendInt(line, after, 10)
	line = append(line, `,"users":`...)
	line = strconv.AppendInt(line, int64(len(v.Users)), 10)
	os.Stdout.Write(append(line, "}\n"...))
}
