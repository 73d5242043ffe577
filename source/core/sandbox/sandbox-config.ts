import {join} from 'node:path';
import {UsageError} from '../errors.js';
import {checkAllowedDomains} from './domain-match.js';
import {writableFolder} from './sandbox-entry.js';
import {readSettingsFile, type RunSettings, type Settings} from '../extensions/settings-file.js';
import type {PlatformDirs} from '../config/dirs.js';
import type {EventBus} from '../extensions/event-bus.js';

/** The run's sandbox for the model's shell commands, as the flag and the settings files say (docs/sandbox.md). */
export interface SandboxConfig {
	enabled: boolean;
	/** Why it is off: `--no-sandbox`, or the file that says `"enabled": false`; null when on. */
	off: string | null;
	/** Folders the commands may write besides the workspace and the temporary folder: canonical, existing. */
	allowWrite: string[];
	/** Domains the commands may reach through the proxy; none: no network. */
	allowedDomains: string[];
}

/**
 * Reads `"sandbox"` from the global settings, the project's `.i/settings.json`
 * and `.i/settings.local.json`, later files over earlier ones for `enabled`,
 * the lists added up. A project's files can only loosen the sandbox, so
 * they count in a trusted workspace only (a warning says so otherwise).
 * `--no-sandbox` (`flag` false) turns it off whatever the files say. A
 * path that does not exist or a malformed domain is a UsageError naming the
 * file and the field.
 */
export async function readSandboxConfig(options: {
	flag?: boolean | undefined;
	settings: RunSettings;
	workspace: string;
	trusted: () => Promise<boolean>;
	warn: (message: string) => void;
}): Promise<SandboxConfig> {
	const local = await readSettingsFile(join(options.workspace, '.i', 'settings.local.json'));
	const files: Array<{settings: Settings; project: boolean}> = [];
	if (options.settings.global?.sandbox) files.push({settings: options.settings.global, project: false});
	for (const project of [options.settings.project, local]) if (project?.sandbox) files.push({settings: project, project: true});
	const config: SandboxConfig = {enabled: true, off: null, allowWrite: [], allowedDomains: []};
	const untrusted = files.some(file => file.project) && !(await options.trusted());
	for (const {settings, project} of files) {
		const sandbox = settings.sandbox!;
		if (project && untrusted) {
			options.warn(`the workspace ${options.workspace} is not trusted, so the sandbox settings of ${settings.path} do not count; pass --trust-project to use them for this run`);
			continue;
		}

		if (sandbox.enabled !== undefined) {
			config.enabled = sandbox.enabled;
			config.off = sandbox.enabled ? null : `"sandbox": {"enabled": false} in ${settings.path}`;
		}

		for (const [index, entry] of sandbox.allowWrite.entries()) config.allowWrite.push(writableFolder(entry, `settings ${settings.path}: field "sandbox.allowWrite[${index}]"`));
		const problem = checkAllowedDomains(sandbox.allowedDomains);
		if (problem !== null) throw new UsageError(`settings ${settings.path}: sandbox.allowedDomains: ${problem}`);
		config.allowedDomains.push(...sandbox.allowedDomains);
	}

	if (options.flag === false) return {...config, enabled: false, off: '--no-sandbox'};
	return config;
}

/** The run's sandbox configuration from set-up's parts: `--no-sandbox`, the settings the extensions' start read, and the workspace's trust as decided by then. */
export async function sandboxOfStart(
	options: {sandbox?: boolean | undefined; trustProject?: boolean | undefined},
	place: {workspace: string; dirs: PlatformDirs; warn: (message: string) => void},
	started: {settings: RunSettings; events: EventBus | null},
): Promise<SandboxConfig> {
	const trusted = async () => {
		const {decideTrust} = await import('../session/decide-trust.js');
		const outcome = await decideTrust({trustProject: options.trustProject, canAsk: false}, {workspace: place.workspace, dirs: place.dirs, events: started.events});
		return 'trusted' in outcome && outcome.trusted;
	};
	return readSandboxConfig({flag: options.sandbox, settings: started.settings, workspace: place.workspace, trusted, warn: place.warn});
}
