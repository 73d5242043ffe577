#!/usr/bin/env node
// `i --runtime worker official`, the worker host every run with the default
// profile starts, loads its own CommonJS bundle: none of the CLI's chunks.
const [command, kind, name] = process.argv.slice(2);
if (command === '--runtime' && kind === 'worker' && name === 'official') {
	const {createRequire} = await import('node:module');
	createRequire(import.meta.url)('../dist/host/official.cjs');
} else {
	await import('../dist/bundle/cli.js');
}
