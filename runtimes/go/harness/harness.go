// Package harness is thaw's Go child harness: the cold child protocol (docs/child-protocol.md)
// around a library, so that a library's child file holds only the library's calls. A child's
// main reads the clock first (harness.Now), then calls harness.Run(main, model, codec).
//
// The clock is runtime.nanotime (CLOCK_MONOTONIC through the vDSO on Linux, what time.Now's
// monotonic reading is made of), so the runner's spawn and reaped stamps and the child's can be
// subtracted. The model is compiled in, with nothing to load: the `model` stamp is one more read
// of the clock, as in a Rust child. A Go program runs its packages' init functions before main,
// so whatever a library does there falls in spawn_to_main (process over floor shows it), not in
// init_plus_ops.
//
// Nothing here calls a JSON library: a `ser` input (the neutral tree) is read by hand (tree.go),
// the model is built from it by hand (package model), and the checksum is 64-bit FNV-1a (the Rust
// children's) computed by hand (digest.go):
//   - `ser`: of the output's bytes;
//   - `de`: of a structural walk of the last decoded value, written by hand in package model;
//   - the floor (Baseline), both ops: of the input's bytes (it hands them back).
//
// The decoded value written back by the library (for the runner's check by meaning) is made only
// when `--check-file` is given (the preflight), after `checked`.
//
// `--window W` is curve mode (curve.go): the operations run in one loop that reads the clock on
// the schedule and keeps one working copy of a `de` input instead of one per call.
package harness

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	_ "unsafe" // go:linkname
)

//go:linkname nanotime runtime.nanotime
func nanotime() int64

// Now is CLOCK_MONOTONIC in nanoseconds.
func Now() int64 { return nanotime() }

// FailureExit is the protocol's status on any error.
const FailureExit = 2

// Model is what the harness needs of a model T, written by hand in package model: no library.
type Model[T any] struct {
	// FromTree builds the value a `ser` child writes from the neutral tree.
	FromTree func(*Node) (*T, error)
	// Digest is the structural digest of a decoded value.
	Digest func(*T) uint64
}

// Codec is a library's side: only its calls.
type Codec[T any] struct {
	// Init makes the library's state, where its users make any once (empty where there is none).
	Init func()
	// De decodes one document (a fresh copy per call).
	De func([]byte) (*T, error)
	// Ser encodes one value; the library's own []byte is handed over.
	Ser func(*T) ([]byte, error)
	// WriteBack writes a decoded value with the same library: the preflight only.
	WriteBack func(*T) ([]byte, error)
	// Version is the library's version (the module's, from the build information).
	Version func() string
}

// Package is the Codec of a library used through encoding/json's package-level API: Unmarshal
// into the model, Marshal of it (a new []byte per call, handed over), no state of its own. A
// library with such an API is one call of it (children/goccy, children/sonic, …).
func Package[T any](unmarshal func([]byte, any) error, marshal func(any) ([]byte, error), version func() string) Codec[T] {
	return Codec[T]{
		Init: func() {},
		De: func(b []byte) (*T, error) {
			var v T
			err := unmarshal(b, &v)
			return &v, err
		},
		Ser:       func(v *T) ([]byte, error) { return marshal(v) },
		WriteBack: func(v *T) ([]byte, error) { return marshal(v) },
		Version:   version,
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "child: "+format+"\n", a...)
	os.Exit(FailureExit)
}

type args struct {
	op, input, drops, checkFile string
	batch, window               int
}

func parseArgs(argv []string) args {
	a := args{drops: "end"}
	seen := map[string]string{}
	for i := 0; i < len(argv); i += 2 {
		flag := argv[i]
		switch flag {
		case "--op", "--batch", "--input", "--drops", "--check-file", "--window":
		default:
			fail("unknown argument `%s`", flag)
		}
		if i+1 >= len(argv) {
			fail("%s needs a value", flag)
		}
		seen[flag] = argv[i+1]
	}
	for _, needed := range []string{"--op", "--batch", "--input"} {
		if _, ok := seen[needed]; !ok {
			fail("missing %s", needed)
		}
	}
	a.op, a.input = seen["--op"], seen["--input"]
	if d, ok := seen["--drops"]; ok {
		a.drops = d
	}
	a.checkFile = seen["--check-file"]
	if a.op != "de" && a.op != "ser" {
		fail("--op %s: give ser or de", a.op)
	}
	if a.drops != "end" && a.drops != "each" {
		fail("--drops %s: give end or each", a.drops)
	}
	a.batch = wholeNumber(seen["--batch"], 1_000_000)
	if a.batch < 1 {
		fail("--batch %s: give 1 to 1000000", seen["--batch"])
	}
	if w, ok := seen["--window"]; ok {
		a.window = wholeNumber(w, 9_999_999)
		if a.window < 1 {
			fail("--window %s: give a whole number from 1 to 9999999", w)
		}
	}
	return a
}

// wholeNumber is text's value when it is digits only, with no leading zero, at most max; else -1.
func wholeNumber(text string, max int) int {
	if text == "" || len(text) > 7 || text[0] == '0' {
		return -1
	}
	n := 0
	for _, c := range []byte(text) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	if n > max {
		return -1
	}
	return n
}

// Run is the child: the protocol's steps around the codec; `--version` alone prints its version.
// Baseline (the floor) hands its input back: `de` the copy, `ser` the input's bytes.
func Run[T any](mainNs int64, model Model[T], codec Codec[T], baseline bool) {
	argv := os.Args[1:]
	if len(argv) == 1 && argv[0] == "--version" {
		fmt.Println(codec.Version())
		return
	}
	modelNs := Now()
	if err := run(mainNs, modelNs, argv, model, codec, baseline); err != nil {
		fail("%v", err)
	}
}

func run[T any](mainNs, modelNs int64, argv []string, model Model[T], codec Codec[T], baseline bool) error {
	a := parseArgs(argv)
	de := a.op == "de"
	data, err := os.ReadFile(a.input)
	if err != nil {
		return err
	}
	var c *curve
	if a.window > 0 {
		c = newCurve(a.batch, a.window)
	}
	var copies [][]byte
	var work []byte
	var value *T
	var keep []*T
	switch {
	case de && c != nil:
		work = bytes.Clone(data) // curve mode's one working copy, refreshed before each call
	case de:
		copies = make([][]byte, a.batch)
		for i := range copies {
			copies[i] = bytes.Clone(data)
		}
		// Every decoded value is kept to the end (unless --drops each), so no drop is timed.
		if a.drops == "end" {
			keep = make([]*T, a.batch)
		}
	case baseline:
		// The floor hands its input back: its value is the input's bytes (T is []byte).
		var ok bool
		if value, ok = any(&data).(*T); !ok {
			return fmt.Errorf("a floor's value is its input's bytes")
		}
	default:
		tree, err := ReadTree(data)
		if err != nil {
			return fmt.Errorf("%s: %w", a.input, err)
		}
		if value, err = model.FromTree(tree); err != nil {
			return fmt.Errorf("%s: %w", a.input, err)
		}
	}
	fixtureNs := Now()

	codec.Init()
	initNs := Now()

	var firstNs, doneNs int64
	var decoded *T
	var output []byte
	switch {
	case c != nil:
		if de {
			decoded, err = curveDe(c, codec.De, data, work)
		} else {
			output, err = curveSer(c, codec.Ser, value)
		}
		if err != nil {
			return err
		}
		firstNs, doneNs = c.ns[0], c.ns[len(c.ns)-1]
	case de:
		for i := 0; i < a.batch; i++ {
			if decoded, err = codec.De(copies[i]); err != nil {
				return err
			}
			if keep != nil {
				keep[i] = decoded
			} else {
				copies[i] = nil // --drops each: the value and its copy go now
			}
			if i == 0 {
				firstNs = Now()
			}
		}
		doneNs = Now()
	default:
		for i := 0; i < a.batch; i++ {
			if output, err = codec.Ser(value); err != nil {
				return err
			}
			if i == 0 {
				firstNs = Now()
			}
		}
		doneNs = Now()
	}

	// The check: no library code, only the model's walk and FNV-1a.
	var check uint64
	var size int
	switch {
	case baseline:
		check, size = FNV1a(data), len(data)
	case de:
		check, size = model.Digest(decoded), len(data)
	default:
		check, size = FNV1a(output), len(output)
	}
	checkedNs := Now()
	var clock1000Ns int64
	if c != nil {
		clock1000Ns = clock1000()
	}

	// The preflight only: what the operations produced, for the runner's check by meaning.
	if a.checkFile != "" {
		written := output
		if baseline {
			written = data
		} else if de {
			if written, err = codec.WriteBack(decoded); err != nil {
				return fmt.Errorf("writing the decoded value back: %w", err)
			}
		}
		if err := os.WriteFile(a.checkFile, written, 0o644); err != nil {
			return err
		}
	}
	hwm, rss := memoryKib()
	line := make([]byte, 0, 256)
	if c != nil {
		line = c.line(line, clock1000Ns)
	}
	line = fmt.Appendf(line, `{"main":%d,"model":%d,"fixture":%d,"init":%d,"first":%d,"done":%d,"checked":%d,"checksum":"%016x","bytes":%d,"hwm_kib":%d,"rss_kib":%d}`+"\n",
		mainNs, modelNs, fixtureNs, initNs, firstNs, doneNs, checkedNs, check, size, hwm, rss)
	if _, err := os.Stdout.Write(line); err != nil {
		return fmt.Errorf("cannot write the line on stdout: %w", err)
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(copies)
	runtime.KeepAlive(value)
	return nil
}

// memoryKib is VmHWM and VmRSS of /proc/self/status, KiB.
func memoryKib() (hwm, rss int64) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range bytes.Split(status, []byte("\n")) {
		fields := bytes.Fields(line)
		if len(fields) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(string(fields[1]), 10, 64)
		switch string(fields[0]) {
		case "VmHWM:":
			hwm = n
		case "VmRSS:":
			rss = n
		}
	}
	return hwm, rss
}
