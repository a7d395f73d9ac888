// Prints one line of JSON describing the Node runtime that runs it, for a run's manifest: the
// runner starts it the way it starts a child (same program, same arguments before the script,
// same environment), so what it reports is what the children's start-up paid for.
'use strict';
// First, before this script loads anything: the built-in modules and bindings Node loaded while
// starting (from its start-up snapshot or not).
const startupModules = (process.moduleLoadList || []).slice();

const fs = require('fs');

const execArgv = process.execArgv.slice();
const nodeOptions = process.env.NODE_OPTIONS;
const options = `${execArgv.join(' ')} ${nodeOptions || ''}`;
const variables = (process.config && process.config.variables) || {};
// Whether start-up deserialized V8's heap from the snapshot built into the binary: the build
// must have one (node_use_node_snapshot) and no option may turn it off (--no-node-snapshot) or
// replace it (--snapshot-blob, a user-land snapshot).
const yes = (x) => x === true || x === 'true';
const builtIn = yes(variables.node_use_node_snapshot);
const snapshot = {
  built_in: builtIn,
  used: builtIn && !/--no-node-snapshot\b/.test(options) && !/--snapshot-blob\b/.test(options),
  user_blob: /--snapshot-blob\b/.test(options),
  code_cache: yes(variables.node_use_node_code_cache),
};

let realpath = process.execPath;
try {
  realpath = fs.realpathSync(process.execPath);
} catch (e) {
  // keep execPath
}

const info = {
  exec_path: process.execPath,
  realpath,
  argv0: process.argv0,
  version: process.version,
  versions: process.versions,
  arch: process.arch,
  platform: process.platform,
  release: process.release,
  exec_argv: execArgv,
  node_options: nodeOptions === undefined ? null : nodeOptions,
  node_env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('NODE_'))),
  snapshot,
  config_variables: variables,
  startup_module_count: startupModules.length,
  startup_modules: startupModules.sort(),
};
process.stdout.write(`${JSON.stringify(info)}\n`);
