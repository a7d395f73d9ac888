// The Node floor (docs/child-protocol.md): the runtime's start and the harness, with no library:
// `de` takes the input's length, `ser` hands the input's bytes back.
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

run(main, {
  baseline: true,
  init() {},
  de: (buffer) => buffer.length,
  ser: (value) => value,
  writeBack: (value) => String(value),
  version: () => process.version,
});
