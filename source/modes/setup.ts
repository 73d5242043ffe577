import {randomBytes} from 'node:crypto';
import {realpathSync, statSync} from 'node:fs';
import {join, resolve} from 'node:path';
import type {CliOptions} from '../run-cli.js';
import {UsageError} from '../core/errors.js';
import {resolveDirs} from '../core/config/dirs.js';
import {configPath, loadModelConfig, readApiKey} from '../core/config/load-config.js';
import {createAdapter} from '../core/providers/index.js';
import {createNativeTools} from '../core/tools/native-tools.js';
import {openSession, sessionPathForName, type Session} from '../core/agent/session-store.js';
import {createApprovalGate, type AskPerson} from '../core/agent/approval-gate.js';
import {renderSystemPrompt} from '../core/agent/system-prompt.js';
import type {TurnContext} from '../core/agent/run-turn.js';
import type {EmitEvent} from '../core/events.js';

/** What a head needs to run turns: everything but the input and the signal. */
export type Agent = Omit<TurnContext, 'signal'> & {session: Session};

/** Print and line mode have no terminal to ask on: an ask becomes a denial the model and the person both see. */
export const denyWithoutTerminal: AskPerson = async () => ({
	decision: 'deny',
	by: 'no_terminal',
	reason: 'approval is needed and there is no terminal to ask on; rerun with --yolo to allow tools without asking',
});

export function resolveWorkspace(cwd: string | undefined): string {
	const path = resolve(cwd ?? '.');
	let real: string;
	try {
		real = realpathSync(path);
	} catch {
		throw new UsageError(`workspace ${path} does not exist (-C)`);
	}

	if (!statSync(real).isDirectory()) throw new UsageError(`workspace ${path} is not a folder (-C)`);
	return real;
}

export function sessionPath(options: CliOptions, workspace: string, dataDir: string): string {
	if (options.session !== undefined) return resolve(options.session);
	if (options.sessionName !== undefined) return sessionPathForName(workspace, options.sessionName);
	const stamp = new Date().toISOString().replaceAll(/[:.]/g, '-');
	return join(dataDir, 'sessions', `${stamp}-${randomBytes(4).toString('hex')}.json`);
}

/** Loads config, key, tools and session; every problem here is a usage error (exit 2). */
export async function setupAgent(options: CliOptions, emit: EmitEvent, askPerson: AskPerson = denyWithoutTerminal): Promise<Agent> {
	const dirs = resolveDirs();
	const workspace = resolveWorkspace(options.cwd);
	const loaded = loadModelConfig(configPath(options.config, dirs.config_dir), options.config !== undefined);
	const apiKey = readApiKey(loaded);
	const {config} = loaded;
	const adapter = createAdapter(config.protocol, {
		model: config.model,
		baseUrl: config.base_url ?? '',
		...(config.max_tokens === undefined ? {} : {maxTokens: config.max_tokens}),
		useMaxTokens: config.use_max_tokens,
		extraBody: config.extra_body,
	});
	const session = await openSession({path: sessionPath(options, workspace, dirs.data_dir), workspace});
	emit({
		type: 'session',
		id: session.id,
		path: session.path,
		workspace,
		resumed_messages: session.messages.length,
		dropped: session.dropped,
	});

	return {
		adapter,
		apiKey,
		model: config.model,
		tools: createNativeTools(),
		session,
		gate: createApprovalGate({yolo: options.yolo, askPerson}),
		emit,
		workspace,
		systemPrompt: renderSystemPrompt(workspace),
		maxSteps: options.maxSteps ?? config.max_steps,
		http: {maxRetries: config.max_retries},
	};
}
