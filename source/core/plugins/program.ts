import {existsSync, readFileSync, realpathSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {UsageError} from '../errors.js';

/**
 * The argv that starts this same program: node and the absolute, canonical
 * path of the script it runs. Manifests generated from it name official
 * workers as `[...programArgv(), '--runtime', 'worker', NAME]`.
 */
export function programArgv(): string[] {
	const script = process.argv[1];
	if (!script) throw new Error('cannot tell which script is running: process.argv[1] is empty');
	return [process.execPath, realpathSync(script)];
}

/** This package's name and its command's script, as package.json names them. */
const packageName = 'i-agent';
const commandScript = join('bin', 'i.js');

/**
 * The argv that starts this package's own `i` (bin/i.js), for a process
 * that is not `i`: a script that embeds the core (core/api), whose
 * process.argv[1] is its own. Found by walking up from this module to the
 * package's root, which is two folders up from the bundle (dist/core,
 * dist/bundle) and four from the compiled tree (dist/source/core/plugins).
 */
export function packageProgramArgv(from: string = fileURLToPath(import.meta.url)): string[] {
	for (let dir = dirname(from); ; dir = dirname(dir)) {
		const script = join(dir, commandScript);
		if (existsSync(script) && readPackageName(join(dir, 'package.json')) === packageName) return [process.execPath, realpathSync(script)];
		if (dirname(dir) === dir) {
			// A bundler that copied the core into another bundle left the package behind.
			throw new UsageError(
				`the official workers need ${commandScript} of the ${packageName} package, and no folder above ${from} holds it; ` +
					`import ${packageName}/core from the installed package (keep it external to a bundle), or use a config without the builtin profile`,
			);
		}
	}
}

function readPackageName(path: string): unknown {
	try {
		return (JSON.parse(readFileSync(path, 'utf8')) as {name?: unknown}).name;
	} catch {
		return undefined;
	}
}
