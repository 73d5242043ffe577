import {checkedDirs} from '../core/config/checked-dirs.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';
import {findExtensionSources} from '../core/extensions/sources.js';
import type {CliOptions} from '../cli-options.js';
import {mainFlags} from '../main-flags.js';
import {unknownFlagError} from './read-tokens.js';

/**
 * A flag no built-in flag is waits for the extensions' own flags
 * (registerFlag); where this run would load no extension at all, it is the
 * usage error it always was, thrown now: before the config is read, so a
 * typo is never reported as a missing config. Only runs with such a flag
 * pay for the look at the extension sources.
 */
export async function refuseUnclaimedFlags(options: CliOptions): Promise<void> {
	const first = options.commandLine.firstPending;
	if (first === undefined) return;
	const sources = await findExtensionSources({
		extensions: options.extensions,
		extensionDirs: options.extensionDirs,
		workspace: resolveWorkspace(options.cwd),
		configDir: checkedDirs().config_dir,
		localOnly: options.localOnly === true,
	});
	// The provider package that ships with i registers no flag: it cannot claim one.
	if (sources.candidates.every(candidate => candidate.origin === 'bundled')) throw unknownFlagError(first, mainFlags);
}
