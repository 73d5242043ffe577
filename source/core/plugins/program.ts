import {realpathSync} from 'node:fs';

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
