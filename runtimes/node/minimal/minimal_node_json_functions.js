// An experiment's reference for the cold child `node-json` (scripts/first-call-vs-minimal.py --node
// --script-libs node-json,node-json-functions): minimal_node_json.js with its one call made as the
// child's harness makes it, through two small functions (`init`, empty, and `de`, which decodes the
// buffer's text with `JSON.parse`) made before the clock and called inside it. V8 compiles a
// function at its first call, so those compiles fall inside the clock here as they do in the child,
// and not in the bare script, whose top-level code is compiled before it runs.
'use strict';
const main = process.hrtime.bigint();
const fs = require('fs');

const document = fs.readFileSync(process.argv[2]);
const copied = Buffer.from(document);
const lib = { init() {}, de: (buffer) => JSON.parse(buffer.toString('utf8')) };
const before = process.hrtime.bigint();
lib.init();
const value = lib.de(copied);
const after = process.hrtime.bigint();
process.stdout.write(`{"main":${main},"before":${before},"after":${after},"users":${value.users.length}}\n`);
