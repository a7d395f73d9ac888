// thaw's warm track for Node: mitata benchmarks of the same libraries, through the same calls, as
// the cold children (each codec-*.toml of this folder, its child module required, not run), on
// the same documents, in this one process; scripts/warm-node.sh runs it once per fork round, each
// a fresh process, and keeps what mitata prints (`format: 'json'`, without its samples) as
// fork-<k>.json, which `analysis report` reads (analysis/src/inputs/mitata.rs).
//
// Each benchmark is named `thaw/codec=<id>/fixture=<name>/op=<de|ser>`. Before it is timed, the
// child module's `model()` and `init()` run, then one call whose result is checked against the
// document by meaning (JSON.parse's reading of it: members in any order, every value equal); a
// wrong one stops the process with status 1, naming the cell. `de` is timed on one Buffer of the
// document (the child's call decodes its text each time, so the Buffer is not consumed), `ser` on
// the value the harness builds from the neutral tree. A typed codec runs only on the fixtures of
// its models (a fixture `users-2kb` is of the model `users`); a codec runs only the ops its
// description names. The descriptions are read by a few lines, not a TOML parser: each
// `key = value` line whose value is a string or a list of strings.
//
//   node runtimes/node/bench.mjs --inputs FIXTURES_DIR [--fixtures users-2kb] [--codecs ajv,node-json]
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { bench, run } from 'mitata';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { readTree } = require('./harness.js');

function fail(message) {
  process.stderr.write(`bench.mjs: ${message}\n`);
  process.exit(1);
}

function args(argv) {
  const out = { '--fixtures': 'users-2kb', '--codecs': '' };
  for (let i = 0; i < argv.length; i += 2) {
    if (!(argv[i] in out) && argv[i] !== '--inputs') fail(`unknown argument ${JSON.stringify(argv[i])}`);
    if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`);
    out[argv[i]] = argv[i + 1];
  }
  if (!out['--inputs']) fail('--inputs FIXTURES_DIR: a cold run\'s fixtures/');
  return out;
}

// Each library codec described here: { id, source, style, ops, models }.
function codecs() {
  const out = [];
  for (const name of fs.readdirSync(here).sort()) {
    if (!name.startsWith('codec-') || !name.endsWith('.toml')) continue;
    const d = {};
    for (const line of fs.readFileSync(path.join(here, name), 'utf8').split('\n')) {
      const m = /^([a-z_]+) = (".*"|\[.*\])$/.exec(line);
      if (!m) continue;
      try {
        d[m[1]] = JSON.parse(m[2]);
      } catch {
        // a value of another form: not one this reads
      }
    }
    if (d.style !== 'baseline') {
      out.push({ id: d.id, source: d.source, style: d.style, ops: d.ops || ['de', 'ser'], models: d.models || [] });
    }
  }
  return out;
}

// Where `a` and `b` differ by meaning, or null.
function differs(a, b, at = '$') {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${at}: not the same list`;
    for (let i = 0; i < a.length; i++) {
      const d = differs(a[i], b[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join('\0') !== kb.join('\0')) return `${at}: not the same members`;
    for (const k of ka) {
      const d = differs(a[k], b[k], `${at}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${at}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
}

const a = args(process.argv.slice(2));
const only = a['--codecs'].split(',').filter(Boolean);
const all = codecs();
for (const id of only) if (!all.some((c) => c.id === id)) fail(`--codecs: no codec ${id} described here`);
for (const codec of all) {
  if (only.length && !only.includes(codec.id)) continue;
  for (const fixture of a['--fixtures'].split(',').filter(Boolean)) {
    if (codec.style === 'typed' && !codec.models.some((m) => fixture.startsWith(`${m}-`))) continue;
    const document = fs.readFileSync(path.join(a['--inputs'], `${fixture}.json`));
    const expected = JSON.parse(document.toString('utf8'));
    for (const op of ['de', 'ser']) {
      if (!codec.ops.includes(op)) continue;
      const lib = require(`./${codec.source}`);
      if (lib.model) lib.model();
      const arg = op === 'de'
        ? document
        : readTree(fs.readFileSync(path.join(a['--inputs'], `${fixture}.tree.txt`), 'utf8'));
      lib.init();
      const call = op === 'de' ? lib.de : lib.ser;
      const out = call(arg);
      const wrong = differs(op === 'de' ? out : JSON.parse(out), expected);
      // escaped: a member's name comes from the document
      if (wrong) fail(`${codec.id} ${op} ${fixture}: not the document, at ${JSON.stringify(wrong)}`);
      bench(`thaw/codec=${codec.id}/fixture=${fixture}/op=${op}`, () => call(arg));
    }
  }
}
await run({
  format: { json: { samples: false, debug: false } },
  print: (s) => process.stdout.write(`${s}\n`),
});
