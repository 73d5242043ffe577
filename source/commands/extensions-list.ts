import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, exitCodes} from '../core/errors.js';
import {nativeToolNames} from '../core/tools/native-tool-names.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import type {PlatformDirs} from '../core/config/dirs.js';
import type {RunSettings} from '../core/extensions/settings-file.js';
import {keepStdoutForContent, printable, writeErr, writeOut} from '../shared/output.js';
import {containExtensions} from '../shared/contain-extensions.js';
import {longFlagNames} from '../command-line/read-tokens.js';
import {mainFlags} from '../main-flags.js';
import {ExtensionFlags} from '../core/extensions/cli-flags.js';
import {loadedEntry, plainText, type Listing} from './extensions-listing.js';

const listFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	json: {type: 'boolean', default: false},
	config: {type: 'string'},
	extension: {type: 'string', isMultiple: true, default: []},
	extensionsDir: {type: 'string', isMultiple: true, default: []},
	trustProject: {type: 'boolean', default: false},
	// A switch for its --no- form, as for a run.
	extensions: {type: 'boolean', default: true},
} satisfies AnyFlags;

type ListFlags = {cwd?: string | undefined; config?: string | undefined; extension: string[]; extensionsDir: string[]; trustProject: boolean; extensions: boolean};

/**
 * `i extensions [-C DIR] [--json] [--config FILE] [--extension PATH]… [--extensions-dir DIR]… [--trust-project] [--no-extensions]`:
 * starts the extensions as a headless run in this workspace starts them
 * (the same sources, trust decision with its ProjectTrust handlers, load
 * order and first-found-wins; their `register` runs, no model does) and
 * lists each loaded one with where it came from and what it registered,
 * then each that was not, and why. It never asks about trust.
 */
export async function runExtensionsList(args: string[]): Promise<number> {
	let listing: Listing;
	let json: boolean;
	// A register that prints must not corrupt the listing (--json above all).
	keepStdoutForContent();
	// One that throws from a timer or never yields must not end or hold the listing: its faults go to stderr.
	containExtensions();
	try {
		const {flags} = parseCommandLine(args, {flags: listFlags});
		json = flags.json;
		listing = await list(flags);
	} catch (error) {
		process.stderr.write(`i: extensions: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}

	writeOut(json ? `${JSON.stringify(listing)}\n` : plainText(listing));
	return exitCodes.ok;
}

async function list(flags: ListFlags): Promise<Listing> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(flags.cwd);
	const {ExtensionStartup} = await import('../core/session/start-extensions.js');
	const options = {
		extensions: flags.extension,
		extensionDirs: flags.extensionsDir,
		trustProject: flags.trustProject,
		// The names a run refuses are refused here too.
		commandLine: new ExtensionFlags({flags: [], input: [], takesInput: true, reserved: longFlagNames(mainFlags)}),
	};
	if (!flags.extensions) return disabledListing(workspace, dirs.config_dir, options);
	const report = (message: string) => writeErr(`${printable(`i: warning: ${message}`)}\n`);
	const startup = await ExtensionStartup.find(options, {workspace, dirs});
	const started = await startup.start({takenToolNames: await runToolNames(flags.config, dirs), report});
	const {extensions, refused, notes} = startup.outcome;
	return {
		workspace,
		loaded: extensions.map(loadedEntry),
		notLoaded: [...refused.map(refusal => ({path: refusal.path, from: refusal.listedIn, why: refusal.why, reason: refusal.reason})), ...(await providerPackageOff(started.settings))],
		notes,
	};
}

/** `--no-extensions`: what a run would load without it, each turned off. */
async function disabledListing(workspace: string, configDir: string, options: {extensions: string[]; extensionDirs: string[]}): Promise<Listing> {
	const {findExtensionSources} = await import('../core/extensions/sources.js');
	const sources = await findExtensionSources({...options, workspace, configDir});
	return {
		workspace,
		loaded: [],
		notLoaded: sources.candidates.map(candidate => ({path: candidate.path, from: candidate.listedIn, why: 'disabled' as const, reason: '--no-extensions: no extension loads'})),
		notes: sources.problems,
	};
}

/** The provider package that ships with i, when a settings file turned it off ("providerPackage": false; the project's word over the global's). */
async function providerPackageOff(settings: RunSettings): Promise<Listing['notLoaded']> {
	const decided = settings.project?.providerPackage === undefined ? settings.global : settings.project;
	if (decided?.providerPackage !== false) return [];
	const [{bundledProviderPackage}, {BUNDLED_LISTED_IN}] = await Promise.all([import('../core/extensions/bundled-providers.js'), import('../core/extensions/sources.js')]);
	const path = await bundledProviderPackage();
	return path === undefined ? [] : [{path, from: BUNDLED_LISTED_IN, why: 'disabled', reason: `"providerPackage": false in ${decided.path}`}];
}

/**
 * The tool names a run has before any extension loads: the native tools
 * and the config's worker tools (their manifests are read; no worker
 * starts). Without a config a run cannot start, and no worker tool is counted.
 */
async function runToolNames(config: string | undefined, dirs: PlatformDirs): Promise<Map<string, string>> {
	const names = new Map<string, string>(nativeToolNames.map(name => [name, 'a native tool']));
	const {loadModelConfig, configPath, NoModelConfigError} = await import('../core/config/load-config.js');
	let loaded;
	try {
		loaded = loadModelConfig(configPath(config, dirs.config_dir), config !== undefined);
	} catch (error) {
		if (error instanceof NoModelConfigError) return names;
		throw error;
	}

	if (loaded.config.plugins.length === 0) return names;
	const {plugins} = await (await import('../core/plugins/load-plugins.js')).loadPlugins(loaded, dirs);
	await plugins.release?.();
	for (const tool of plugins.tools) names.set(tool.name, 'a worker tool');
	return names;
}
