// The cold child of ajv's standalone code, generated at build time (docs/child-protocol.md), `de`
// only: the validator generate.js wrote from the Users schema (generated_users_validate.js,
// committed) is loaded in init, so nothing is compiled at run time, then per call `JSON.parse` of
// the document (decoded from UTF-8 first) and the validation, which throws when it is not a
// Users value. Beside `ajv`, which compiles the same schema at start-up. `writeBack` runs only in
// the preflight (`--check-file`).
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

let validate;

const lib = {
  init() {
    validate = require('./generated_users_validate');
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
  version: () => `${require('ajv/package.json').version} (standalone, generated at build time)`,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
