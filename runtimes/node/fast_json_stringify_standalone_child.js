// The cold child of fast-json-stringify's standalone mode, generated at build time
// (docs/child-protocol.md), `ser` only: the serializer generate.js wrote from the Users schema
// (generated_users_stringify.js, committed; it requires fast-json-stringify's small run-time
// serializer module) is loaded in init, so nothing is compiled at run time, then per call the
// serializer on the value the harness built from the neutral tree (a new string). Beside
// `fast-json-stringify`, which compiles the same schema at start-up.
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

let stringify;

const lib = {
  init() {
    stringify = require('./generated_users_stringify');
  },
  de() {
    throw new Error('fast-json-stringify writes only: it parses nothing');
  },
  ser: (value) => stringify(value),
  version: () =>
    `${require('fast-json-stringify/package.json').version} (standalone, generated at build time)`,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
