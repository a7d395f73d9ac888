// The Node floor (docs/child-protocol.md): the runtime's start and the harness, with no library:
// `de` takes the input's length, `ser` hands the input's bytes back; its checksum is FNV-1a of
// the input's bytes for both ops, and its check file the input itself.
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

const lib = {
  baseline: true,
  init() {},
  de: (buffer) => buffer.length,
  ser: (value) => value,
  version: () => process.version,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
