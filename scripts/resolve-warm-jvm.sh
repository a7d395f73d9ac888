#!/usr/bin/env bash
# Once, with the network: everything the warm JVM track's Maven build needs (JMH 1.37 from Maven
# Central, the four libraries at the cold children's versions, the Kotlin compiler and every
# plugin) into ~/.m2, so that scripts/warm-jvm.sh builds offline (`mvn -o`). The same step the
# cold JVM children need (runtimes/jvm/runtime.toml's `resolve`): dependency:go-offline does
# not reach the annotation processor's or the Kotlin plugin's own jars, a real package does. The
# build goes to a scratch folder, removed afterwards. Idempotent: a second run downloads nothing.
#
#   scripts/resolve-warm-jvm.sh            (scripts/install-runtimes.sh calls it)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v mvn >/dev/null 2>&1; then
  echo "resolve-warm-jvm: no mvn on PATH; install Maven and a JDK: scripts/install-runtimes.sh" \
    "(or: apt-get install -y maven openjdk-17-jdk-headless)" >&2
  exit 1
fi
if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
  echo "resolve-warm-jvm: no JDK for Maven (no java on PATH, no JAVA_HOME): scripts/install-runtimes.sh" >&2
  exit 1
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/thaw-warm-jvm-resolve.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

# Maven 3.8 writes colour resets even with -B and -q: what reaches the log is plain text.
mvn -B -Dstyle.color=never -q -f warm/jvm/pom.xml -Dthaw.build="$scratch" dependency:go-offline package 2>&1 |
  sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g'  >&2
echo "resolve-warm-jvm: ready: the warm JVM track builds offline (scripts/warm-jvm.sh)"
