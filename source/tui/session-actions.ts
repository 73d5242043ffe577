import {basename, dirname} from 'node:path';
import type {Agent} from '../core/session/agent.js';
import type {Session} from '../core/session/session-store.js';
import {sessionRenamed, type SwitchGate, type SwitchReason} from '../core/session/session-switch.js';
import type {ChooserBroker} from './brokers/chooser-broker.js';
import type {ChatCore} from './chat-core.js';
import type {ChatStore} from './chat-store.js';

/** What the session actions need of the agent, the lazily loaded core and the screen. */
export interface SessionParts {
	agent: Pick<Agent, 'session' | 'sessionFolder' | 'workspace' | 'extensionEvents' | 'instructions' | 'switchSession' | 'mayLeaveSession' | 'reloadInstructions'>;
	core: Pick<ChatCore, 'openWorkspaceSession' | 'provisionalSessionPath' | 'forkSession' | 'renameWorkspaceSession' | 'listSessions' | 'sessionPickerRequest' | 'cannotOpen' | 'showSessionHistory'>;
	store: Pick<ChatStore, 'notice' | 'setSession' | 'showHistory' | 'delivered' | 'clearTranscript'>;
	chooser: Pick<ChooserBroker, 'ask'>;
	/** Clears the terminal's visible screen (its scrollback from before `i` stays): /clear. */
	clearScreen?: () => void;
}

/**
 * The chat's sessions as the person changes them: a new one (/clear),
 * another of the workspace's (/resume, --resume), a copy (/fork), a new name
 * (/rename), each switched to through the agent and its history shown.
 */
export class SessionActions {
	readonly #parts: SessionParts;
	readonly #warn = (message: string) => this.#parts.store.notice('warning', message);

	constructor(parts: SessionParts) {
		this.#parts = parts;
	}

	/** The session the screen opened with: a resumed one (--continue, --session) shows its conversation, its extensions' messages and entries as they were shown. */
	showOpened(): void {
		const {agent, core, store} = this.#parts;
		if (agent.session.messages.length > 0 || agent.session.entries.length > 0) core.showSessionHistory(agent.session, store);
		if (agent.instructions.enabled && !agent.instructions.inSession)
			store.notice('info', 'AGENTS.md changed since this session started: it keeps the instructions it started with until /reload reads them again');
	}

	/** /clear: a new session in the workspace's folder; the previous one stays saved. */
	async clear(): Promise<void> {
		const {agent, core, store} = this.#parts;
		const path = core.provisionalSessionPath(agent.sessionFolder);
		if (!this.#allowed(await agent.mayLeaveSession('new', path), '/clear')) return;
		const next = await core.openWorkspaceSession({path, workspace: agent.workspace, warn: this.#warn});
		await this.#switchTo(next, 'new');
		// Nothing of the old session stays on the screen: its transcript, its tokens and cost.
		this.#parts.clearScreen?.();
		store.clearTranscript();
		// A new session starts with the AGENTS.md files as they are now.
		await this.readInstructions();
		store.notice('info', `new session ${next.id}: it is named after its first message; the previous one stays saved`);
	}

	/** /resume and --resume: the picker of the workspace's sessions; the one chosen replaces the running session. */
	async resume(atStart: boolean): Promise<void> {
		const {agent, core, store, chooser} = this.#parts;
		const folder = agent.sessionFolder;
		const current = agent.session.path;
		const summaries = await core.listSessions(folder);
		if (summaries.every(summary => summary.path === current)) {
			store.notice('info', `no saved session in this workspace yet (${folder})${atStart ? ': this is a new one' : ''}`);
			return;
		}

		const chosen = await chooser.ask(core.sessionPickerRequest(summaries, new Date(), current));
		const summary = summaries.find(candidate => candidate.name === chosen);
		if (!summary) {
			if (atStart) store.notice('info', 'no session chosen: this is a new one');
			return;
		}

		const why = core.cannotOpen(summary, current);
		if (why) {
			store.notice('warning', why);
			return;
		}

		if (!this.#allowed(await agent.mayLeaveSession('resume', summary.path), '/resume')) return;
		const next = await core.openWorkspaceSession({path: summary.path, workspace: agent.workspace, warn: this.#warn});
		store.notice('info', `resumed ${summary.name} (${next.messages.length} messages)`);
		await this.#switchTo(next, 'resume');
		if (next.dropped) store.notice('warning', `session repaired: dropped ${next.dropped.lines} line(s) (${next.dropped.reason}), kept in ${next.dropped.savedTo}`);
	}

	/** /fork: the chat goes on in a copy of the session (an extension may refuse it); the original stays as it was. */
	async fork(): Promise<void> {
		const {agent, core, store} = this.#parts;
		if (!this.#allowed(await agent.mayLeaveSession('fork', null), '/fork')) return;
		const outcome = await core.forkSession(agent.session, agent.sessionFolder, agent.extensionEvents ?? null, this.#warn);
		if (!outcome.ok) {
			store.notice('warning', `extension ${outcome.by} refused the fork (SessionBeforeFork)${outcome.reason === null ? '' : `: ${outcome.reason}`}; this session goes on`);
			return;
		}

		const from = agent.session.path;
		await this.#switchTo(outcome.fork, 'fork', {showHistory: false});
		store.notice('info', `forked into ${sessionName(outcome.fork.path)} (${outcome.fork.messages.length} messages); ${sessionName(from)} stays as it was`);
	}

	/** /rename NAME: only the chat's own sessions (those in the workspace's folder) are renamed here. */
	async rename(name: string): Promise<void> {
		const {agent, core, store} = this.#parts;
		if (dirname(agent.session.path) !== agent.sessionFolder) {
			store.notice('warning', `/rename renames the chat's own sessions; this one is ${agent.session.path} (--session or --session-name names it)`);
			return;
		}

		const previousPath = agent.session.path;
		await core.renameWorkspaceSession(agent.session, name);
		sessionRenamed(agent.extensionEvents ?? null, agent.session, previousPath, sessionName(agent.session.path));
		store.notice('info', `renamed ${sessionName(previousPath)} to ${sessionName(agent.session.path)}`);
	}

	/** Whether the extensions let the session be left; a refusal is said, naming the extension and its reason. */
	#allowed(gate: SwitchGate, command: string): boolean {
		if (gate.ok) return true;
		this.#parts.store.notice('warning', `extension ${gate.by} refused ${command} (SessionBeforeSwitch)${gate.reason === null ? '' : `: ${gate.reason}`}; this session goes on`);
		return false;
	}

	/** Reads the AGENTS.md files again into the session's system prompt and the next session's (/reload, /clear). */
	async readInstructions(): ReturnType<Agent['reloadInstructions']> {
		const result = await this.#parts.agent.reloadInstructions();
		for (const message of result.notices) this.#parts.store.notice('warning', message);
		return result;
	}

	/** Puts `next` in place of the running session (the old one is saved and closed) and shows its history, unless it is on the screen already (a fork). */
	async #switchTo(next: Session, reason: SwitchReason, options: {showHistory: boolean} = {showHistory: true}): Promise<void> {
		const {agent, core, store} = this.#parts;
		// The children of the old session end with it; new ones' sessions go beside the new one.
		await agent.switchSession(next, reason);
		store.setSession(next.id);
		if (options.showHistory && next.messages.length > 0) core.showSessionHistory(next, store);
	}
}

/** A session's name: its file's, without `.json`. */
function sessionName(path: string): string {
	return basename(path, '.json');
}
