// thaw's Node child harness: the cold child protocol (docs/child-protocol.md) around a library
// module, so that a library's child file holds only what is the library's. A child file stamps
// `main` first, then, run as the main module, calls `run(main, lib)` (required, as the warm track's
// bench.mjs requires it, it exports `lib` and runs nothing) with `lib` = { model()?, init(),
// de(buffer), ser(value), writeBack(value), version(), baseline? }; `model`, where a typed library
// has one, loads its model (the Users schema) before the `model` stamp, the same in both ops;
// `writeBack` (the decoded value written by the same library) is called only in the preflight
// (`--check-file`), after `checked`, never in a timed sample. Nothing here parses or writes JSON: a
// `ser` input (the neutral tree of docs/child-protocol.md) is read by hand, and the checksum is
// computed by hand.
//
// The checksum is 64-bit FNV-1a (offset 0xcbf29ce484222325, prime 0x100000001b3), the Rust
// children's, computed on four 16-bit limbs in plain numbers (BigInt costs 10-20x more: ~110 ms
// a MB here, against ~5), of:
//   - `ser`: the output's UTF-8 bytes;
//   - `de`: a structural walk of the last decoded value (`walkDigest`, below);
//   - the floor (`baseline`), both ops: the input's bytes.
//
// The walk, in the value's own iteration order (an object's keys as Object.keys gives them):
//   null 'n'   true 't'   false 'f'
//   number 'd' TEXT ';'          (TEXT: String(x), the shortest that reads back; '-0' for -0)
//   string 's' LEN ':' TEXT      (LEN: its length in UTF-16 code units)
//   array '[' COUNT ':' item...  object '{' COUNT ':' (key-as-string value)...
// fed to FNV-1a as UTF-8 (a lone surrogate as its own three bytes, so it is kept too). Every
// value is tagged and every string and container carries its length, so two values with the
// same walk are the same value. JavaScript has one number type: `1` and `1.0` walk the same.
//
// Curve mode (`--window W`, docs/child-protocol.md; schema::curve declares it): the batch of N
// operations runs in one loop that reads the clock after operation i when i is in the schedule
// (`curveSchedule`: a checkpoint m·10^e with m one of 1, 2, 3, 5, 7, 15, a multiple of W, or N),
// into a BigUint64Array made before the clock (each read still makes the BigInt hrtime returns);
// the read after op 1 is `first`, the one after op N `done`. `de` cannot hold N copies nor N
// values: one working Buffer (Buffer.from(data), the kind of copy `freshCopies` makes before the
// clock) is refreshed before each call by copying the document's bytes into it (`data.copy`, no
// allocation), and each decoded value is dropped when the next replaces it, the last kept for
// the check, whatever `--drops` says. `ser` calls the library on its one value as outside curve
// mode. After `checked` it times 1,000 back-to-back clock reads, and it prints the curve line
// `{"ops":[…],"ns":[…],"clock_1000_ns":X}` before its protocol line. Without `--window` nothing
// of this runs.
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
    if (!['--op', '--batch', '--input', '--drops', '--check-file', '--window'].includes(flag)) {
      fail(`unknown argument \`${flag}\``);
    }
    if (i + 1 >= argv.length) fail(`${flag} needs a value`);
    args[flag] = argv[i + 1];
  }
  for (const needed of ['--op', '--batch', '--input']) {
    if (!(needed in args)) fail(`missing ${needed}`);
  }
  const batch = Number(args['--batch']);
  if (!/^[0-9]+$/.test(args['--batch']) || batch < 1 || batch > 1000000) {
    fail(`--batch ${args['--batch']}: give 1 to 1000000`);
  }
  if (args['--op'] !== 'de' && args['--op'] !== 'ser') fail(`--op ${args['--op']}: give ser or de`);
  if (args['--drops'] !== 'end' && args['--drops'] !== 'each') {
    fail(`--drops ${args['--drops']}: give end or each`);
  }
  let window;
  if ('--window' in args) {
    window = Number(args['--window']);
    if (!/^[1-9][0-9]*$/.test(args['--window']) || !Number.isSafeInteger(window)) {
      fail(`--window ${args['--window']}: give a whole number from 1`);
    }
  }
  return [args['--op'], batch, args['--input'], args['--drops'], args['--check-file'], window];
}

// Every operation count after which a curve child reads its clock, ascending (what
// schema::curve::schedule gives): each checkpoint m·10^e (m one of 1, 2, 3, 5, 7, 15) up to
// `batch`, each multiple of `window`, and `batch`.
function curveSchedule(batch, window) {
  const ops = new Set([batch]);
  for (let n = window; n <= batch; n += window) ops.add(n);
  for (let decade = 1; decade <= batch; decade *= 10) {
    for (const m of [1, 2, 3, 5, 7, 15]) if (m * decade <= batch) ops.add(m * decade);
  }
  return [...ops].sort((a, b) => a - b);
}

// Curve mode's operations (the top of this file): `batch` calls, the clock read into `ns[k]`
// after each operation `ops[k]`; returns the last call's result.
function curveOps(lib, op, batch, data, work, value, ops, ns) {
  const clock = process.hrtime.bigint;
  const last = ops.length - 1;
  let k = 0;
  let at = ops[0];
  let out;
  if (op === 'de') {
    for (let i = 1; i <= batch; i++) {
      data.copy(work, 0); // the working copy, refreshed: the document's bytes into its own memory
      out = lib.de(work);
      if (i === at) {
        ns[k] = clock();
        if (k < last) at = ops[++k];
      }
    }
  } else {
    for (let i = 1; i <= batch; i++) {
      out = lib.ser(value);
      if (i === at) {
        ns[k] = clock();
        if (k < last) at = ops[++k];
      }
    }
  }
  return out;
}

// The time of 1,000 back-to-back clock reads, ns.
function clock1000() {
  const clock = process.hrtime.bigint;
  const start = clock();
  for (let i = 0; i < 1000; i++) clock();
  return clock() - start;
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

// `batch` copies of `data`, each with its own memory (Buffer.from(buffer) copies the bytes).
function freshCopies(data, batch) {
  const copies = [];
  for (let i = 0; i < batch; i++) copies.push(Buffer.from(data));
  return copies;
}

// 64-bit FNV-1a on four 16-bit limbs, h0 the lowest: h * 0x100000001b3 = h * 0x1b3 + (h << 40),
// and every partial sum stays below 2^27, exact in a double and in 32-bit integer operations.
// `fnv1a` hashes bytes, `fnv1aText` a string's UTF-8 bytes (a lone surrogate as its own three
// bytes, WTF-8, so that it is kept too) without making them. Each is one tight loop on locals.
const hex4 = (n) => n.toString(16).padStart(4, '0');

/** FNV-1a of `bytes` (a Buffer), as 16 lowercase hex digits. */
function fnv1a(bytes) {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < bytes.length; i++) {
    const x = h0 ^ bytes[i];
    const t0 = x * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (x << 8) + (t1 >>> 16);
    h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
    h1 = t1 & 0xffff;
    h0 = t0 & 0xffff;
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

/** FNV-1a of the UTF-8 bytes of `text`, as 16 lowercase hex digits. */
function fnv1aText(text) {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  // Up to four bytes of one code point, the first in the low byte, then their count.
  let pending = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      pending = c;
      count = 1;
    } else if (c < 0x800) {
      pending = (0xc0 | (c >> 6)) | ((0x80 | (c & 0x3f)) << 8);
      count = 2;
    } else {
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) {
          i++;
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        }
      }
      if (c >= 0x10000) {
        pending = (0xf0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3f)) << 8) |
          ((0x80 | ((c >> 6) & 0x3f)) << 16) | ((0x80 | (c & 0x3f)) << 24);
        count = 4;
      } else {
        pending = (0xe0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3f)) << 8) |
          ((0x80 | (c & 0x3f)) << 16);
        count = 3;
      }
    }
    for (; count > 0; count--, pending >>>= 8) {
      const x = h0 ^ (pending & 0xff);
      const t0 = x * 0x1b3;
      const t1 = h1 * 0x1b3 + (t0 >>> 16);
      const t2 = h2 * 0x1b3 + (x << 8) + (t1 >>> 16);
      h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
      h2 = t2 & 0xffff;
      h1 = t1 & 0xffff;
      h0 = t0 & 0xffff;
    }
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

/** The structural walk of a decoded value (the grammar is at the top of this file), as text. */
function walkText(value) {
  const parts = [];
  function walk(v) {
    if (v === null) {
      parts.push('n');
    } else if (typeof v === 'string') {
      parts.push(`s${v.length}:`, v);
    } else if (typeof v === 'number') {
      // A small integer's text directly (the same as String(v), faster); -0 as '-0'.
      if ((v | 0) === v && !Object.is(v, -0)) parts.push(`d${v};`);
      else parts.push(`d${Object.is(v, -0) ? '-0' : String(v)};`);
    } else if (v === true) {
      parts.push('t');
    } else if (v === false) {
      parts.push('f');
    } else if (Array.isArray(v)) {
      parts.push(`[${v.length}:`);
      for (let i = 0; i < v.length; i++) walk(v[i]);
    } else if (typeof v === 'object') {
      const keys = Object.keys(v);
      parts.push(`{${keys.length}:`);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        parts.push(`s${k.length}:`, k);
        walk(v[k]);
      }
    } else {
      throw new TypeError(`a decoded value of type ${typeof v}`);
    }
  }
  walk(value);
  return parts.join('');
}

/** FNV-1a of the structural walk of a decoded value, as 16 lowercase hex digits. */
function walkDigest(value) {
  const text = walkText(value);
  // The same digest either way; Buffer.from (C++) and the byte loop are ~3x faster than the
  // text loop, but Buffer.from would write a lone surrogate as U+FFFD.
  return /\p{Cs}/u.test(text) ? fnv1aText(text) : fnv1a(Buffer.from(text, 'utf8'));
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

const asBytes = (out) => (typeof out === 'string' ? Buffer.from(out, 'utf8') : out);

function run(mainNs, lib) {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`${lib.version()}\n`);
    return;
  }
  try {
    runChild(mainNs, lib, argv);
  } catch (e) {
    fail(`${(e && e.name) || 'error'}: ${(e && e.message) || e}`);
  }
}

function runChild(mainNs, lib, argv) {
  // The model: a typed child loads its schema here; a DOM child decodes to the runtime's own
  // objects and arrays, so its model phase is one more read of the clock
  // (docs/child-protocol.md).
  if (lib.model) lib.model();
  const modelNs = process.hrtime.bigint();
  const [op, batch, path, drops, checkFile, window] = parseArgs(argv);
  const data = fs.readFileSync(path);
  const curve = window !== undefined;
  let copies;
  let value;
  let work;
  let ops;
  let ns;
  if (curve) {
    ops = curveSchedule(batch, window);
    ns = new BigUint64Array(ops.length);
    if (op === 'de') work = Buffer.from(data);
  }
  if (op === 'de') {
    if (!curve) copies = freshCopies(data, batch);
  } else {
    value = lib.baseline ? data : readTree(data.toString('utf8'));
  }
  const fixtureNs = process.hrtime.bigint();

  lib.init();
  const initNs = process.hrtime.bigint();

  const keep = [];
  let firstNs = 0n;
  let doneNs;
  if (curve) {
    keep.push(curveOps(lib, op, batch, data, work, value, ops, ns));
    firstNs = ns[0];
    doneNs = ns[ns.length - 1];
  } else {
    let out;
    for (let i = 0; i < batch; i++) {
      out = op === 'de' ? lib.de(copies[i]) : lib.ser(value);
      if (op === 'de' && (drops === 'end' || i === batch - 1)) keep.push(out);
      if (i === 0) firstNs = process.hrtime.bigint();
    }
    if (op === 'ser') keep.push(out);
    doneNs = process.hrtime.bigint();
  }

  // The check: no library code, only the harness's walk and FNV-1a.
  const last = keep[keep.length - 1];
  let check;
  let size;
  let output;
  if (lib.baseline) {
    check = fnv1a(data);
    size = data.length;
  } else if (op === 'de') {
    check = walkDigest(last);
    size = data.length;
  } else {
    output = asBytes(last);
    check = fnv1a(output);
    size = output.length;
  }
  const checkedNs = process.hrtime.bigint();
  const clock1000Ns = curve ? clock1000() : 0n;

  // The preflight only: what the operations produced, for the runner's check by meaning (for
  // `de`, written back by the library itself, outside every timed phase).
  if (checkFile) {
    let written;
    if (lib.baseline) written = data;
    else if (op === 'de') written = asBytes(lib.writeBack(last));
    else written = output;
    fs.writeFileSync(checkFile, written);
  }
  const [hwm, rss] = memoryKib();
  if (curve) {
    process.stdout.write(`{"ops":[${ops.join(',')}],"ns":[${ns.join(',')}],"clock_1000_ns":${clock1000Ns}}\n`);
  }
  process.stdout.write(
    `{"main":${mainNs},"model":${modelNs},"fixture":${fixtureNs},"init":${initNs},"first":${firstNs},` +
    `"done":${doneNs},"checked":${checkedNs},"checksum":"${check}",` +
    `"bytes":${size},"hwm_kib":${hwm},"rss_kib":${rss}}\n`,
  );
}

module.exports = { run, curveSchedule, readTree, freshCopies, fnv1a, fnv1aText, walkText, walkDigest };
