#!/usr/bin/env node
// The package's command: the compiled CLI (src/cli.ts) starts the sandbox and stops it on Ctrl-C or SIGTERM.
require('../dist/cli.js');
