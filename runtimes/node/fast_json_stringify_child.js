// The cold child of fast-json-stringify, compiled at start-up (docs/child-protocol.md), `ser`
// only (it writes; it does not parse): the Users schema loaded in the model phase,
// `fastJson(schema)` in init (it generates the serializer's JavaScript and makes it a function
// with `new Function`), then per call the serializer on the value the harness built from the
// neutral tree (a new string; the schema's fields in its order, compact).
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

let schema;
let stringify;

const lib = {
  model() {
    schema = require('./users_schema');
  },
  init() {
    const fastJson = require('fast-json-stringify');
    stringify = fastJson(schema);
  },
  de() {
    throw new Error('fast-json-stringify writes only: it parses nothing');
  },
  ser: (value) => stringify(value),
  version: () => require('fast-json-stringify/package.json').version,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
