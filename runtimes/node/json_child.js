// The cold child of Node's built-in JSON (docs/child-protocol.md): `JSON.parse` of the document
// (decoded from UTF-8 first, as a program reading a file does), `JSON.stringify` of the value (a
// new string per call; compact, non-ASCII written as it is). `writeBack` runs only in the
// preflight (`--check-file`).
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

const lib = {
  init() {},
  de: (buffer) => JSON.parse(buffer.toString('utf8')),
  ser: (value) => JSON.stringify(value),
  writeBack: (value) => JSON.stringify(value),
  version: () => process.version,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
