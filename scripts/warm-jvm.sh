#!/usr/bin/env bash
# The warm JVM track (warm/jvm/README.md): JMH benches of kotlinx.serialization, Gson, Jackson
# databind and Apache Fory JSON on thaw's own documents, gated before anything is measured.
#
#   scripts/warm-jvm.sh                     every cell, the seed's settings (2 forks, 1 x 5 s
#                                           warm-up, 3 x 1 s), 1 thread, JDK 25
#   scripts/warm-jvm.sh --quick             a first look: 1 fork, 1 x 1 s warm-up, 2 x 1 s
#   scripts/warm-jvm.sh --jdk 17 --fixtures users-1000kb,clients-1000kb --libs fory,kotlinx
#   scripts/warm-jvm.sh --threads 2 --ops de --modes avgt -- -prof gc
#   scripts/warm-jvm.sh --seed              the figures quoted beside the seed's warmed table
#   scripts/warm-jvm.sh --threads 1,2,15 --fixtures users-1000kb --libs fory,kotlinx
#
# Options: --quick, --jdk 25|17 (default 25), --fixtures a,b, --libs kotlinx,gson,jackson,fory,
# --ops de,ser, --modes thrpt,avgt, --threads N or a series N,M,... (default 1), --out FILE
# (default results/warm/jmh/jdk<N>/jmh.json); anything after `--` goes to JMH.
#
# A series of thread counts runs JMH once per count, one after another, each count's files in
# a folder of its own beside FILE: <dir of FILE>/threads-<N>/{jmh.json,gate.csv,run-info.txt}.
# A count above the machine's cores oversubscribes it (run-info.txt and the output say so).
# JMH's throughput with N threads is the sum over its N threads; scripts/warm-seed-table.py
# gives the aggregate and the per-thread figures of a series.
#
# --seed: the settings of every figure quoted beside the seed's warmed table (docs/findings.md), at
# least 5 forks x 5 iterations in one mode: --fixtures users-1000kb,clients-1000kb --libs
# fory,kotlinx --modes thrpt --threads 1,2,15 --out results/warm/seed/jdk<N>/jmh.json, and for
# JMH `-f 5 -wi 1 -w 5s -i 5 -r 1s` (the seed's 5 s warm-up); an option given explicitly wins,
# and JMH options after `--` replace the preset's. Its default folder is outside
# results/warm/jmh/, which `analysis report` reads as the warm figures (one per cell).
#
# What it does, each step safe to repeat:
#   1. writes the documents into a temporary folder with thaw's fixtures CLI (the prebuilt
#      target/release/fixtures when there is one, else `cargo run --release -p fixtures`);
#   2. builds the JMH jar offline into target/warm-jvm/ (never into the sources), unless it is
#      newer than every source it is built from (resolve once with the network first:
#      scripts/resolve-warm-jvm.sh);
#   3. runs it: the gate (every cell's round trip against the document, in its own JVM), then JMH
#      over the cells that passed, writing JMH's own JSON to results/warm/jmh/jdk<N>/jmh.json,
#      the gate's decisions to gate.csv and the machine's state to run-info.txt beside it.
# Exit status: the jar's (0 all measured; 1 a cell refused by the gate or failed in JMH; 2 a
# usage or set-up error), or 1 when mvn, the JDK or the fixtures CLI is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
command_line="scripts/warm-jvm.sh $*"

all_fixtures="users-2kb,users-1kb,users-10kb,users-100kb,users-1000kb,clients-1kb,clients-10kb,clients-100kb,clients-1000kb"
quick=0 seed=0 jdk=25 fixtures="" threads="" libs="" ops="" modes="" out=""
jmh_args=() jmh_given=0
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --seed) seed=1; shift ;;
    --jdk|--fixtures|--threads|--libs|--ops|--modes|--out)
      if [ $# -lt 2 ]; then echo "warm-jvm: $1 needs a value" >&2; exit 2; fi
      case "$1" in
        --jdk) jdk="$2" ;; --fixtures) fixtures="$2" ;; --threads) threads="$2" ;;
        --libs) libs="$2" ;; --ops) ops="$2" ;; --modes) modes="$2" ;; --out) out="$2" ;;
      esac
      shift 2 ;;
    --) shift; jmh_args=("$@"); jmh_given=1; break ;;
    -h|--help) usage; exit 0 ;;
    *) echo "warm-jvm: unknown argument \`$1\`" >&2; usage; exit 2 ;;
  esac
done

# The --seed preset (see the top): what is not given explicitly.
if [ "$seed" = 1 ]; then
  if [ "$quick" = 1 ]; then echo "warm-jvm: --seed and --quick are two different settings: give one" >&2; exit 2; fi
  fixtures="${fixtures:-users-1000kb,clients-1000kb}"
  libs="${libs:-fory,kotlinx}"
  modes="${modes:-thrpt}"
  threads="${threads:-1,2,15}"
  out="${out:-results/warm/seed/jdk$jdk/jmh.json}"
  if [ "$jmh_given" = 0 ]; then jmh_args=(-f 5 -wi 1 -w 5s -i 5 -r 1s); fi
fi
fixtures="${fixtures:-$all_fixtures}"

# The thread counts: one, or a series.
thread_list=()
if [ -n "$threads" ]; then
  IFS=',' read -r -a thread_list <<<"$threads"
  for n in "${thread_list[@]}"; do
    if ! [[ "$n" =~ ^[1-9][0-9]{0,3}$ ]] || [ "$n" -gt 1024 ]; then
      echo "warm-jvm: --threads $threads: give thread counts from 1 to 1024, comma-separated" >&2
      exit 2
    fi
  done
fi

# The JDK that runs the benches (and JMH's forks: they use the same java).
java_major() { "$1" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2; exit}'; }
case "$jdk" in
  25)
    java="${THAW_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
    if [ ! -x "$java" ]; then
      echo "warm-jvm: no JDK 25 at $java (set THAW_JDK25 to its bin/java); install it with scripts/install-runtimes.sh, or give --jdk 17" >&2
      exit 1
    fi ;;
  17)
    java=""
    if command -v java >/dev/null 2>&1 && [ "$(java_major "$(command -v java)")" = 17 ]; then
      java="$(command -v java)"
    else
      for j in /usr/lib/jvm/java-17*/bin/java /usr/lib/jvm/*-17-*/bin/java; do
        if [ -x "$j" ]; then java="$j"; break; fi
      done
    fi
    if [ -z "$java" ]; then
      echo "warm-jvm: no JDK 17 (neither \`java\` on PATH nor /usr/lib/jvm/java-17*); install it with scripts/install-runtimes.sh" >&2
      exit 1
    fi ;;
  *) echo "warm-jvm: --jdk $jdk: give 25 or 17" >&2; exit 2 ;;
esac
major="$(java_major "$java")"
if [ "$major" != "$jdk" ]; then
  echo "warm-jvm: $java is JDK ${major:-?}, not $jdk" >&2
  exit 1
fi
if ! command -v mvn >/dev/null 2>&1; then
  echo "warm-jvm: no mvn on PATH: install Maven with scripts/install-runtimes.sh (or apt-get install -y maven), then scripts/resolve-warm-jvm.sh once with the network" >&2
  exit 1
fi

out="${out:-results/warm/jmh/jdk$jdk/jmh.json}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
results_dir="$(dirname "$out")"

# 1. The documents.
docs="$(mktemp -d "${TMPDIR:-/tmp}/thaw-warm-jvm-docs.XXXXXX")"
trap 'rm -rf "$docs"' EXIT
IFS=',' read -r -a fixture_list <<<"$fixtures"
if [ -x target/release/fixtures ]; then
  target/release/fixtures generate --out "$docs" "${fixture_list[@]}" >/dev/null
elif command -v cargo >/dev/null 2>&1; then
  cargo run -q --release -p fixtures -- generate --out "$docs" "${fixture_list[@]}" >/dev/null
else
  echo "warm-jvm: neither target/release/fixtures nor cargo: cannot write the documents" >&2
  exit 1
fi

# 2. The jar, offline, outside the sources; rebuilt when a source is newer.
build="$root/target/warm-jvm"
jar="$build/benchmarks.jar"
sources=(warm/jvm/pom.xml warm/jvm/src runtimes/jvm/pom.xml runtimes/jvm/src
         runtimes/jvm/codec-gson.toml runtimes/jvm/codec-jackson.toml
         runtimes/jvm/codec-fory.toml runtimes/jvm/codec-kotlinx.toml)
if [ ! -f "$jar" ] || [ -n "$(find "${sources[@]}" -newer "$jar" -print -quit)" ]; then
  echo "warm-jvm: building $jar (mvn -o)"
  if ! mvn -B -Dstyle.color=never -o -q -f warm/jvm/pom.xml -Dthaw.build="$build" package; then
    echo "warm-jvm: the offline build failed; if Maven says an artifact is missing, run scripts/resolve-warm-jvm.sh once with the network" >&2
    exit 1
  fi
  touch "$jar"
fi

# 3. The run: once, or once per thread count of a series (each in its own folder).
cores="$(nproc)"
run_once() {  # run_once OUT THREADS ("" for the jar's default, 1)
  local out="$1" n="$2" dir info status start
  dir="$(dirname "$out")"
  mkdir -p "$dir"
  local args=(--docs "$docs" --fixtures "$fixtures" -rf json -rff "$out" --gate-csv "$dir/gate.csv")
  [ "$quick" = 1 ] && args+=(--quick)
  [ -n "$n" ] && args+=(--threads "$n")
  [ -n "$libs" ] && args+=(--libs "$libs")
  [ -n "$ops" ] && args+=(--ops "$ops")
  [ -n "$modes" ] && args+=(--modes "$modes")
  info="$dir/run-info.txt"
  local load=""
  if [ "${n:-1}" -gt "$cores" ]; then
    load="${n} benchmark threads on ${cores} cores: oversubscribed (the threads take turns on the cores, beside the JIT and the collector)"
    echo "warm-jvm: $load"
  fi
  {
    echo "command: $command_line"
    echo "threads: ${n:-1}${load:+ ($load)}"
    echo "java: $java ($("$java" -version 2>&1 | head -1))"
    echo "jar: $jar"
    echo "cpu: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo '?'), $cores cores"
    echo "kernel: $(uname -sr)"
    echo "start: $(date -u +%Y-%m-%dT%H:%M:%SZ) load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  } >"$info"
  status=0
  start=$SECONDS
  "$java" -Xms64m -Xmx512m -XX:+UseSerialGC -jar "$jar" "${args[@]}" -- "${jmh_args[@]}" || status=$?
  {
    echo "end: $(date -u +%Y-%m-%dT%H:%M:%SZ) load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
    echo "seconds: $((SECONDS - start))"
    echo "exit: $status"
  } >>"$info"
  echo "warm-jvm: $out (JMH's JSON), $dir/gate.csv, $info; exit $status"
  return "$status"
}

status=0
if [ "${#thread_list[@]}" -le 1 ]; then
  run_once "$out" "${thread_list[0]:-}" || status=$?
else
  for n in "${thread_list[@]}"; do
    s=0
    run_once "$results_dir/threads-$n/$(basename "$out")" "$n" || s=$?
    # The worst status of the series: 2 (set-up) over 1 (a cell refused or failed) over 0.
    if [ "$s" -gt "$status" ]; then status=$s; fi
  done
  echo "warm-jvm: the series in $results_dir/threads-{$(IFS=,; echo "${thread_list[*]}")}; aggregate and per-thread figures: scripts/warm-seed-table.py $results_dir"
fi
exit "$status"
