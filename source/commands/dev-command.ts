import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {exitCodes, UsageError} from '../core/errors.js';
import type {DevPackage} from '../core/extensions/dev/dev-package.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {helpOutput} from '../help.js';
import {writeErr, writeOut} from '../shared/output.js';
import type {CliOptions} from '../cli-options.js';
import {writeFailure} from './package-command.js';

const devFlags = {
	// A switch for its --no- form: --no-watch.
	watch: {type: 'boolean', default: true},
	package: {type: 'string', shortFlag: 'P'},
	localOnly: {type: 'boolean', default: false},
} satisfies AnyFlags;

/**
 * `i dev [DIR] [--no-watch] [--package NAME | -P NAME] [--local-only] [-- I_ARGS…]`
 * and `i dev-local …` (the same with --local-only): builds the extension
 * package in DIR (the current folder by default), stages the build under the
 * workspace's `.i/extensions/.dev/`, and opens the chat screen with it
 * loaded, watching the sources and rebuilding on change (the chat screen
 * reloads each new build). The words after `--` are `i`'s own flags for
 * that chat (`-C`, `--model`…). The chat screen needs a terminal; with `-p`
 * among them one turn runs instead, with one build and no watching, which
 * works anywhere. A first build that fails exits 1 with its error; a
 * usage problem (flags, no package, a workspace without --package) exits 2.
 */
export async function runDev(args: string[], command: {localOnly: boolean; runHead: (options: CliOptions) => Promise<number>}): Promise<number> {
	const name = command.localOnly ? 'dev-local' : 'dev';
	const split = args.indexOf('--');
	const own = split === -1 ? args : args.slice(0, split);
	const forward = split === -1 ? [] : args.slice(split + 1);
	let options: CliOptions;
	let dir: string;
	let flags: DevFlags;
	try {
		({flags, dir} = parseDevFlags(own, name));
		const {parseFlags} = await import('../main-flags.js');
		const parsed = parseFlags(forward);
		if (parsed.kind === 'help') {
			writeOut(helpOutput(parsed.text));
			return exitCodes.ok;
		}

		if (parsed.kind === 'version') {
			writeOut(`${(await import('../version.js')).version()}\n`);
			return exitCodes.ok;
		}

		options = parsed.options;
		checkHead(options, name);
	} catch (error) {
		return writeFailure(name, error);
	}

	const localOnly = command.localOnly || flags.localOnly;
	// One turn builds once: there is nothing to reload into.
	const watch = flags.watch && options.print === undefined;
	// Until the head takes over, an interrupt ends i dev at once; the copies a build left are removed at the next start.
	const {exitOnInterrupt} = await import('../shared/interrupt.js');
	const startup = exitOnInterrupt();
	let loop;
	let headStarted = false;
	try {
		const workspace = resolveWorkspace(options.cwd);
		const {findDevPackage} = await import('../core/extensions/dev/dev-package.js');
		const found = await findDevPackage(dir, flags.package);
		if (found.kind === 'nothing') {
			if (!localOnly) {
				throw new UsageError(
					`nothing to build: ${found.reason}; i dev builds an extension package (a package.json with a "build" script, or an entry to bundle); i dev-local opens the chat without one, with the project's skills and prompts only`,
				);
			}

			writeErr(`i: ${name}: nothing to build (${found.reason}): no extension is loaded, only the project's own skills and prompts\n`);
		} else {
			writeErr(`i: ${name}: building ${describeBuild(found.package)}\n`);
			const {createDevLoop} = await import('../core/extensions/dev/create-dev-loop.js');
			// Said before the chat screen opens; once it owns the terminal a stderr line would break its frame.
			const onProblem = (message: string) => {
				if (!headStarted) writeErr(`i: ${name}: ${message}\n`);
			};
			loop = await createDevLoop({package: found.package, workspace, watch, onProblem});
			writeErr(`i: ${name}: built ${found.package.name} in ${loop.firstMs} ms: ${loop.first}${watch ? `; watching ${found.package.folder}` : ''}\n`);
		}
	} catch (error) {
		startup.dispose();
		return writeFailure(name, error);
	}

	startup.dispose();
	headStarted = true;
	try {
		return await command.runHead({...options, extensions: loop ? [loop.first, ...options.extensions] : options.extensions, dev: loop, localOnly});
	} finally {
		await loop?.close();
	}
}

interface DevFlags {
	watch: boolean;
	package: string | undefined;
	localOnly: boolean;
}

function parseDevFlags(args: string[], name: string): {flags: DevFlags; dir: string} {
	const {flags, input} = parseCommandLine(args, {flags: devFlags, takesInput: true});
	if (input.length > 1) throw new UsageError(`i ${name} builds one package folder, not ${input.length} (${input.join(' ')}); i's own flags go after --: i ${name} DIR -- -C WORKSPACE`);
	return {flags, dir: input[0] ?? '.'};
}

/** The chat screen needs a terminal; without one only a -p turn can run. */
function checkHead(options: CliOptions, name: string): void {
	if (options.noExtensions) throw new UsageError(`--no-extensions would keep the build of i ${name} from loading; leave it out (i dev-local loads no extension but the one it builds)`);
	if (options.print !== undefined) return;
	const why = options.json ? '--json asks for line mode' : !process.stdout.isTTY ? 'stdout is not a terminal' : !process.stdin.isTTY ? 'stdin is not a terminal' : undefined;
	if (why !== undefined) throw new UsageError(`i ${name} opens the chat screen, and ${why}; to try a build without one, run one turn: i ${name} DIR -- -p "use the tool"`);
}

function describeBuild(pkg: DevPackage): string {
	return pkg.build.kind === 'script' ? `${pkg.name} with npm run build in ${pkg.folder}` : `${pkg.name}: esbuild bundles ${pkg.build.entry}`;
}
