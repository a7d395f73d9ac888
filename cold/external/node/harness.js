// thaw's Node child harness: the cold child protocol (docs/child-protocol.md) around a library
// module, so that a library's child file holds only what is the library's. A child file stamps
// `main` first, then calls `run(main, lib)` with `lib` = { init(), de(buffer), ser(value),
// writeBack(value), version(), baseline? }. Nothing here parses JSON: a `ser` input (the neutral
// tree of docs/child-protocol.md) is read by hand.
'use strict';
const fs = require('fs');

const FAILURE_EXIT = 2;

function fail(message) {
  process.stderr.write(`child: ${message}\n`);
  process.exit(FAILURE_EXIT);
}

function parseArgs(argv) {
  const args = { '--drops': 'end' };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    if (!['--op', '--batch', '--input', '--drops', '--check-file'].includes(flag)) {
      fail(`unknown argument \`${flag}\``);
    }
    if (i + 1 >= argv.length) fail(`${flag} needs a value`);
    args[flag] = argv[i + 1];
  }
  for (const needed of ['--op', '--batch', '--input']) {
    if (!(needed in args)) fail(`missing ${needed}`);
  }
  const batch = Number(args['--batch']);
  if (!Number.isInteger(batch) || batch < 1 || batch > 1000000) {
    fail(`--batch ${args['--batch']}: give 1 to 1000000`);
  }
  return [args['--op'], batch, args['--input'], args['--drops'], args['--check-file']];
}

// The neutral tree (one value per line, pre-order) as objects, arrays and scalars.
function readTree(text) {
  const lines = text.split('\n');
  let pos = 0;
  const hex = (h) => Buffer.from(h, 'hex').toString('utf8');
  function value() {
    const line = lines[pos++];
    const space = line.indexOf(' ');
    const tag = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    switch (tag) {
      case '{': {
        const obj = {};
        for (let n = Number(rest); n > 0; n--) {
          const key = hex(lines[pos++].slice(2));
          obj[key] = value();
        }
        return obj;
      }
      case '[': {
        const arr = [];
        for (let n = Number(rest); n > 0; n--) arr.push(value());
        return arr;
      }
      case 's': return hex(rest);
      case 'i': return Number(rest);
      case 'f': return Number(rest);
      case 't': return true;
      case 'F': return false;
      case 'n': return null;
      default: return fail(`bad tree line \`${line}\``);
    }
  }
  return value();
}

function memoryKib() {
  let hwm = 0;
  let rss = 0;
  for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
    if (line.startsWith('VmHWM:')) hwm = Number(line.split(/\s+/)[1]);
    if (line.startsWith('VmRSS:')) rss = Number(line.split(/\s+/)[1]);
  }
  return [hwm, rss];
}

function run(mainNs, lib) {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`${lib.version()}\n`);
    return;
  }
  const [op, batch, path, drops, checkFile] = parseArgs(argv);
  const data = fs.readFileSync(path);
  let copies;
  let value;
  if (op === 'de') {
    copies = [];
    for (let i = 0; i < batch; i++) copies.push(Buffer.from(data));
  } else if (op === 'ser') {
    value = lib.baseline ? data : readTree(data.toString('utf8'));
  } else {
    fail(`--op ${op}: give ser or de`);
  }
  const fixtureNs = process.hrtime.bigint();

  lib.init();
  const initNs = process.hrtime.bigint();

  const keep = [];
  let firstNs = 0n;
  let out;
  for (let i = 0; i < batch; i++) {
    out = op === 'de' ? lib.de(copies[i]) : lib.ser(value);
    if (op === 'de' && (drops === 'end' || i === batch - 1)) keep.push(out);
    if (i === 0) firstNs = process.hrtime.bigint();
  }
  if (op === 'ser') keep.push(out);
  const doneNs = process.hrtime.bigint();

  const last = keep[keep.length - 1];
  let produced = op === 'de' ? lib.writeBack(last) : last;
  if (typeof produced === 'string') produced = Buffer.from(produced, 'utf8');
  const size = op === 'de' ? data.length : produced.length;
  const check = produced.length;
  const checkedNs = process.hrtime.bigint();
  if (checkFile) fs.writeFileSync(checkFile, produced);
  const [hwm, rss] = memoryKib();
  process.stdout.write(
    `{"main":${mainNs},"fixture":${fixtureNs},"init":${initNs},"first":${firstNs},` +
    `"done":${doneNs},"checked":${checkedNs},"checksum":"${check.toString(16).padStart(16, '0')}",` +
    `"bytes":${size},"hwm_kib":${hwm},"rss_kib":${rss}}\n`,
  );
}

module.exports = { run, readTree };
