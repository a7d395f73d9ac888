// The cold child of secure-json-parse (docs/child-protocol.md), `de` only (it parses; it does
// not write): `sjson.parse` of the document (decoded from UTF-8 first, as node-json does), which
// is JSON.parse and then a scan for `__proto__` and `constructor.prototype` keys (Fastify's guard
// against prototype poisoning), with its defaults (such keys are refused). `writeBack` runs
// only in the preflight (`--check-file`).
'use strict';
const main = process.hrtime.bigint();
const { run } = require('./harness');

let sjson;

const lib = {
  init() {
    sjson = require('secure-json-parse');
  },
  de: (buffer) => sjson.parse(buffer.toString('utf8')),
  ser() {
    throw new Error('secure-json-parse parses only: it writes nothing');
  },
  writeBack: (value) => JSON.stringify(value),
  version: () => require('secure-json-parse/package.json').version,
};

// Run as a child; required, it is the warm track's (bench.mjs).
if (require.main === module) run(main, lib);
module.exports = lib;
