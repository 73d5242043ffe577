import {UsageError} from '../errors.js';
import type {EmitEvent} from '../events.js';
import {packageProgramArgv} from '../plugins/program.js';
import {setupAgent} from '../session/setup-agent.js';
import {permissionModeNames} from '../agent/permission-mode.js';
import {headlessDialog} from '../extensions/headless-dialog.js';
import {approveAsker} from './approve.js';
import {AgentSession} from './agent-session.js';
import type {OpenSessionOptions, Session} from './types.js';

/** `i --max-steps` takes the same range. */
const MAX_STEPS_LIMIT = 1000;

/**
 * Opens a session in a workspace as `i -p` does: the config, its plugins and
 * their workers, the native tools, the session file and the start hooks.
 * Rejects with a UsageError for a config, workspace or session that cannot
 * be used, a StartVetoError when a plugin refuses the start, and the
 * signal's reason when it is aborted.
 */
export async function openSession(options: OpenSessionOptions = {}): Promise<Session> {
	checkOptions(options);
	const emit: EmitEvent = options.onEvent ?? (() => {});
	const agent = await setupAgent(
		{
			cwd: options.cwd,
			config: options.config,
			session: options.sessionFile,
			maxSteps: options.maxSteps,
			yolo: options.yolo,
			permissionMode: options.permissionMode,
			agentsMd: options.agentsMd,
			// The official workers are started by this package's `i`, not by the script that embeds it.
			packageProgram: packageProgramArgv,
		},
		emit,
		approveAsker(options.approve),
		options.signal,
	);
	// An embedding script has no screen for the extensions' dialogs: they are refused, never answered for anyone.
	agent.provideRuntime({uiDialog: headlessDialog('the core API (openSession)')});
	return new AgentSession(agent);
}

function checkOptions(options: OpenSessionOptions): void {
	for (const name of ['cwd', 'sessionFile'] as const) {
		if (options[name] !== undefined && (typeof options[name] !== 'string' || options[name] === '')) throw new UsageError(`openSession: ${name} must be a non-empty path`);
	}

	const {config, maxSteps, approve, permissionMode} = options;
	if (permissionMode !== undefined && !(permissionModeNames as readonly unknown[]).includes(permissionMode)) {
		throw new UsageError(`openSession: permissionMode must be one of ${permissionModeNames.join(', ')} (got ${JSON.stringify(permissionMode)})`);
	}

	if (permissionMode !== undefined && options.yolo === true && permissionMode !== 'bypassPermissions')
		throw new UsageError(`openSession: yolo is permissionMode bypassPermissions; it cannot go with ${permissionMode}`);
	if (config !== undefined && typeof config !== 'string' && (typeof config !== 'object' || config === null || Array.isArray(config))) {
		throw new UsageError('openSession: config must be the path of a config file or a config object');
	}

	if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_STEPS_LIMIT)) {
		throw new UsageError(`openSession: maxSteps must be a whole number from 1 to ${MAX_STEPS_LIMIT} (got ${String(maxSteps)})`);
	}

	if (approve !== undefined && typeof approve !== 'function') throw new UsageError('openSession: approve must be a function');
	if (options.agentsMd !== undefined && typeof options.agentsMd !== 'boolean') throw new UsageError('openSession: agentsMd must be true or false');
}
