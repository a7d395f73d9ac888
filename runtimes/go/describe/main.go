// Prints one line of JSON describing the Go that builds and runs thaw's Go children, for a run's
// manifest: the toolchain's version, the build settings a child gets (this program is built by
// the same toolchain with -trimpath, as runtimes/go/build.sh builds them: GOAMD64, CGO_ENABLED,
// GOOS/GOARCH), and what the Go runtime chooses at start on this machine (GOMAXPROCS, the GC
// percentage GOGC gives, the memory limit). A child's environment is PATH and HOME only, plus
// what `cold run --env` adds, so a child runs with Go's defaults for GOGC, GOMAXPROCS,
// GOMEMLIMIT and GODEBUG unless the run says otherwise; `runner_env` shows what this program
// (started with the runner's environment) saw of them.
package main

import (
	"encoding/json"
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

func main() {
	gcPercent := debug.SetGCPercent(-1)
	debug.SetGCPercent(gcPercent)
	memLimit := debug.SetMemoryLimit(-1)
	settings := map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	if _, ok := settings["GOAMD64"]; !ok && runtime.GOARCH == "amd64" {
		settings["GOAMD64"] = "v1 (the default)"
	}
	env := map[string]string{}
	for _, k := range []string{"GOGC", "GOMAXPROCS", "GOMEMLIMIT", "GODEBUG", "GOEXPERIMENT", "GOAMD64", "GOFLAGS"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	limit := any(memLimit)
	if memLimit == math.MaxInt64 {
		limit = "none (the default)"
	}
	out := map[string]any{
		"version":        runtime.Version(),
		"compiler":       runtime.Compiler,
		"goos":           runtime.GOOS,
		"goarch":         runtime.GOARCH,
		"build_settings": settings,
		"gomaxprocs":     runtime.GOMAXPROCS(0),
		"num_cpu":        runtime.NumCPU(),
		"gogc_percent":   gcPercent,
		"gomemlimit":     limit,
		"runner_env":     env,
		"children_build": "go build -trimpath (runtimes/go/build.sh), GOPROXY=off, modules as go.sum pins",
	}
	line, _ := json.Marshal(out)
	os.Stdout.Write(append(line, '\n'))
}
