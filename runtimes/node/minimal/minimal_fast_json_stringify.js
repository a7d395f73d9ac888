// The reference for the cold child `fast-json-stringify` (scripts/first-call-vs-minimal.py --node):
// a Node program that reads one Users document, copies it, and requires fast-json-stringify,
// compiles the Users schema's serializer, and writes the document's value once with it, and nothing
// else of the protocol: no harness, no arguments but the document's path, no other library. It
// prints its CLOCK_MONOTONIC reads (process.hrtime.bigint, the harness's clock): at main, before
// the library's part and after it.
'use strict';
const main = process.hrtime.bigint();
const fs = require('fs');

const document = fs.readFileSync(process.argv[2]);
const copied = Buffer.from(document);
// The schema, loaded before the library's part, as the child's model phase loads it.
const schema = require('../users_schema');
// The value to write, made before the library's part (JSON is the runtime's, not a library).
const value = JSON.parse(document.toString('utf8'));
const before = process.hrtime.bigint();
const fastJson = require('fast-json-stringify');
const stringify = fastJson(schema);
const written = stringify(value);
const after = process.hrtime.bigint();
process.stdout.write(`{"main":${main},"before":${before},"after":${after},"users":${written.length}}\n`);
