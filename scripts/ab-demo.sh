#!/usr/bin/env bash
# Prepares the A/B check's demonstration builds of serde_json, from the version Cargo.lock pins
# (its source, as cargo fetched it): an unchanged copy (`serde_json-same`: the same library
# against itself) and a copy with a planted regression (`serde_json-planted`: `from_slice` does
# some extra work on its first call, once per process, as a lazy table would), each patched in by
# its description in cold/variants/. Idempotent.
#
#   scripts/ab-demo.sh && scripts/ab-check.sh serde_json-same serde_json-planted --codecs serde_json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

src="$(cargo metadata --format-version 1 2>/dev/null | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "serde_json" and p["source"] and "crates.io" in p["source"]:
        print(p["manifest_path"].rsplit("/", 1)[0]); break')"
[ -d "$src" ] || { echo "ab-demo: no serde_json source (run cargo fetch)" >&2; exit 1; }

out="$root/target/ab-demo"
mkdir -p "$out"
for name in serde_json-same serde_json-planted; do
  rm -rf "${out:?}/$name"
  cp -r "$src" "$out/$name"
  chmod -R u+w "$out/$name"
done
# The planted regression: about two thousand multiply-adds on the first call only.
python3 - "$out/serde_json-planted/src/de.rs" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
anchor = "    T: de::Deserialize<'a>,\n{\n    from_trait(read::SliceRead::new(v))\n}"
assert text.count(anchor) == 1, "serde_json's from_slice is not where the demonstration expects it"
planted = ("    T: de::Deserialize<'a>,\n{\n"
           "    // thaw's planted regression: work on the first call only, as a lazy table would do\n"
           "    static PLANTED: std::sync::Once = std::sync::Once::new();\n"
           "    PLANTED.call_once(|| {\n"
           "        core::hint::black_box((0..2_000u64).fold(0u64, |a, b| a.wrapping_mul(31).wrapping_add(b)));\n"
           "    });\n"
           "    from_trait(read::SliceRead::new(v))\n}")
open(path, "w").write(text.replace(anchor, planted))
PY
echo "ab-demo: $out/serde_json-same (unchanged) and $out/serde_json-planted (a planted first-call regression)"
