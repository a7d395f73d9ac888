// The reference for the cold child `ajv-standalone` (scripts/first-call-vs-minimal.py --node): a
// Node program that reads one Users document, copies it, and requires ajv's standalone validator of
// the Users schema (generated at build time), and decodes it once with `JSON.parse` of its text and
// the validation, and nothing else of the protocol: no harness, no arguments but the document's
// path, no other library. It prints its CLOCK_MONOTONIC reads (process.hrtime.bigint, the harness's
// clock): at main, before the library's part and after it.
'use strict';
const main = process.hrtime.bigint();
const fs = require('fs');

const document = fs.readFileSync(process.argv[2]);
const copied = Buffer.from(document);
const before = process.hrtime.bigint();
const validate = require('../generated_users_validate');
const value = JSON.parse(copied.toString('utf8'));
if (!validate(value)) throw new TypeError('not a Users value');
const after = process.hrtime.bigint();
process.stdout.write(`{"main":${main},"before":${before},"after":${after},"users":${value.users.length}}\n`);
