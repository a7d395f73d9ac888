// A library's version, from the build information Go writes into every binary.
package harness

import (
	"runtime"
	"runtime/debug"
)

// ModuleVersion is the version of module `path` this binary was built with, and the Go it was
// built by (runtime.Version, which names the experiments on: `go1.26.8 X:jsonv2`).
func ModuleVersion(path string) string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == path {
				return m.Version + " (" + runtime.Version() + ")"
			}
		}
	}
	return "unknown (" + runtime.Version() + ")"
}

// GoVersion is the Go this binary was built by: the version of the standard library's codecs.
func GoVersion() string { return runtime.Version() }
