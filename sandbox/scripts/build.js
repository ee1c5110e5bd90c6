// `npm run build` in sandbox/ (the root's `npm run build:sandbox`, and npm's prepack): compiles
// src/ into dist/ with tsc, then copies the service's OpenAPI document (the repository's
// docs/openapi.json, the one truth) into dist/, where the packed package's server reads it.
const { execFileSync } = require('node:child_process');
const { copyFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const here = join(__dirname, '..');
rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
copyFileSync(join(here, '..', 'docs', 'openapi.json'), join(here, 'dist', 'openapi.json'));
