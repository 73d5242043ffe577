import {resolveDirs} from '../core/config/dirs.js';
import {errorMessage, exitCodes, UsageError} from '../core/errors.js';
import {readBindings} from '../core/plugins/bindings.js';
import {generateManifest} from '../core/plugins/generate-manifest.js';
import {isProfileName, profileNames} from '../core/plugins/profiles.js';
import {writeErr, writeOut} from '../shared/output.js';
import {programArgv} from '../core/plugins/program.js';

/**
 * `i --runtime manifest PROFILE`: prints the profile's manifest as JSON,
 * its official workers started by this program's absolute path and
 * bindings.json applied (spec/platform.md §1). Warnings go to stderr.
 */
export async function runCommand(args: string[]): Promise<number> {
	const [profile, ...rest] = args;
	if (profile === undefined || rest.length > 0 || !isProfileName(profile)) {
		const got = profile === undefined ? 'no profile' : rest.length > 0 ? `extra arguments: ${rest.join(' ')}` : `unknown profile "${profile}"`;
		writeErr(`i: --runtime manifest PROFILE (${got}); profiles: ${profileNames.join(', ')}\n`);
		return exitCodes.usage;
	}

	try {
		const bindings = await readBindings(resolveDirs().config_dir);
		const {manifest, warnings} = generateManifest({profile, bindings, program: programArgv()});
		for (const warning of warnings) writeErr(`i: warning: ${warning}\n`);
		writeOut(`${JSON.stringify(manifest, null, 2)}\n`);
		return exitCodes.ok;
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		writeErr(`i: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}
}
