import {Box, Text} from 'ink';
import {homedir} from 'node:os';
import type {PermissionModeName} from '../source/core/agent/permission-mode.js';
import type {StatusInfo} from '../source/tui/chat-state.js';
import {statusCost} from '../source/tui/cost-tally.js';

function shortPath(path: string): string {
	const home = homedir();
	return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function tokens(count: number): string {
	return count >= 10_000 ? `${Math.round(count / 1000)}k` : String(count);
}

/** How the status line names a permission mode; the default shows nothing. */
const modeLabels: Record<PermissionModeName, string | null> = {
	default: null,
	acceptEdits: '⏵⏵ accept edits',
	plan: '⏸ plan mode',
	bypassPermissions: '⏵⏵ bypass permissions',
};

/** The permission mode when not the default, then model, workspace, the last request's tokens, the share of the window it used, the prompt-cache hit ratio, the session's cost. */
export function StatusLine({status, busy}: {status: StatusInfo; busy: boolean}) {
	const {usage} = status;
	const mode = status.mode ? modeLabels[status.mode] : null;
	const parts = [mode ?? '', status.model, shortPath(status.workspace)].filter(part => part !== '');
	if (status.session) parts.push(`session ${status.session.slice(0, 8)}`);
	else if (status.newSession) parts.push('new session');
	if (usage) {
		parts.push(`↑${tokens(usage.input)} ↓${tokens(usage.output)}`);
		if (status.window && !status.budget) parts.push(`ctx ${Math.min(100, Math.round(((usage.input + usage.output) / status.window) * 100))}%`);
		// Over the session when known (Σ read / Σ input), else the last request's.
		const {read, input} = status.cacheTotals ?? {read: usage.cacheRead, input: usage.input};
		if (input > 0) parts.push(`cache ${Math.round((read / input) * 100)}%`);
	}

	// The session's cost so far ("unknown" when a price is missing, never $0).
	const cost = status.cost ? statusCost(status.cost) : null;
	if (cost !== null) parts.push(cost);
	// The budget's own figure: the estimate for the next request against the limit that triggers compaction.
	// A byte count is only an upper bound on tokens: it is marked as the estimate it is.
	if (status.budget)
		parts.push(
			`budget ${status.budget.anchored ? '' : '≤'}${Math.min(999, Math.round((status.budget.estimate / Math.max(1, status.budget.limit)) * 100))}% of ${tokens(status.budget.limit)}${status.budget.anchored ? '' : ' est.'}`,
		);

	return (
		<Box justifyContent="space-between">
			<Box flexShrink={1}>
				<Text dimColor wrap="truncate-end">
					{parts.join(' · ')}
				</Text>
			</Box>
			<Box flexShrink={0} marginLeft={1}>
				<Text dimColor>{busy ? 'Esc to stop' : '/help'}</Text>
			</Box>
		</Box>
	);
}
