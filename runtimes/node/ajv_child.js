// The cold child of ajv, compiled at start-up (docs/child-protocol.md), `de` only (ajv
// validates; it neither parses nor writes): the Users schema loaded in the model phase, `new
// Ajv()` and `ajv.compile(schema)` in init (ajv generates the validator's JavaScript and makes it a
// function with `new Function`), then per call `JSON.parse` of the document (decoded from UTF-8
// first, as node-json does) and the compiled validation of the value, which throws when it is not
// a Users value. `writeBack` runs only in the preflight (`--check-file`).
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

let schema;
let validate;

const lib = {
  model() {
    schema = require('./users_schema');
  },
  init() {
    const Ajv = require('ajv');
    validate = new Ajv().compile(schema);
  },
  de(buffer) {
    const value = JSON.parse(buffer.toString('utf8'));
    if (!validate(value)) throw new TypeError(`not a Users value: ${JSON.stringify(validate.errors[0])}`);
    return value;
  },
  ser() {
    throw new Error('ajv validates only: it writes nothing');
  },
  writeBack: (value) => JSON.stringify(value),
  version: () => require('ajv/package.json').version,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
