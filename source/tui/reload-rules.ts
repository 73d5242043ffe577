import type {Agent} from '../core/session/agent.js';
import type {ChatStore} from './chat-store.js';

/**
 * Reads the settings files' permission rules again (/reload, a new `i dev`
 * build), knowing the tools as they are now, since a rule may name an
 * extension's tool. Said only when the rules changed or some cannot be used
 * (then no allow rule counts): a reload that changed nothing stays quiet,
 * and a warning said before (an untrusted workspace's allow rules) is not
 * repeated at every `i dev` build.
 */
export async function reloadRules(agent: Pick<Agent, 'permissions' | 'tools'>, store: Pick<ChatStore, 'notice'>): Promise<void> {
	const permissions = agent.permissions;
	// Rules an embedder gave are not the settings files'.
	if (permissions === null) return;
	let reload: Awaited<ReturnType<typeof permissions.reload>>;
	try {
		reload = await permissions.reload({toolNames: agent.tools.map(tool => tool.name)});
	} catch (error) {
		store.notice('error', `the permission rules were not read again, and those read before stay: ${(error as Error).message}`);
		return;
	}

	const {rules, problems, workspace} = permissions;
	if (!reload.changed && problems.length === 0) return;
	for (const message of reload.warnings) store.notice('warning', message);
	if (rules.length === 0 && problems.length === 0) {
		store.notice('info', 'permission rules: none now');
		return;
	}

	const {shownFile} = await import('./commands/permissions-slash.js');
	// The warnings above name each rule that cannot be used and its file; this line counts them.
	const files = [...new Set(rules.map(rule => shownFile(rule.file, workspace)))];
	const unusable = problems.length === 0 ? '' : `, ${problems.length} cannot be used`;
	store.notice('info', `permission rules: ${rules.length} read${unusable}${files.length === 0 ? '' : ` (${files.join(', ')})`}`);
}
