import {basename} from 'node:path';
import {anchoredTokens, anchorProblem, type UsageAnchor} from '../../../workers/budget/budget-estimate.js';
import {HistoryMeter, measureTools} from '../../../workers/budget/history-meter.js';
import {CONTEXT_MARKER} from '../../core/history/compaction.js';
import type {Message} from '../../core/messages.js';
import type {ToolSchema} from '../../core/providers/types.js';
import {INSTRUCTIONS_HEADING, renderFileSection} from '../../core/resources/instructions-block.js';
import type {SessionInstructions} from '../../core/session/session-instructions.js';

/** One part of the next request and its estimated tokens. */
export interface ContextRow {
	label: string;
	tokens: number;
}

export interface ContextReport {
	rows: ContextRow[];
	/** The sum of the rows: the request as the budget would count it (without a usage anchor). */
	total: number;
	/** What the shares are of; null when neither the config's budget nor the catalogue names a window. */
	window: {tokens: number; source: string} | null;
	/** The request in the provider's tokens, anchored on its count of the last request as the budget anchors it; or why there is none. */
	counted: {tokens: number; input: number; output: number; since: number} | {why: string};
}

export interface ContextInput {
	/** The session's history (its first message the system prompt); empty for a new session. */
	messages: readonly Message[];
	/** The system prompt a new session's first request carries (used when `messages` is empty). */
	systemPrompt: string;
	tools: readonly ToolSchema[];
	instructions: SessionInstructions;
	window: ContextReport['window'];
	/** The budget's `image_tokens`: what an image is planned at (null: its data URL's bytes). */
	imageTokens: number | null;
	/** The provider's count of the session's last request (request-model.ts), and the model now called. */
	anchor: UsageAnchor | null;
	model: string;
}

/**
 * What the next request holds, part by part, in the budget's own estimate
 * (workers/budget/history-meter.ts: UTF-8 bytes of what goes on the wire, local
 * metadata left out, images as planned), so the parts add up to what the
 * budget would count for the request before a usage anchors it. The next
 * message the person types and what `before_turn` hooks add then are not
 * known yet and not in it.
 */
export function contextReport(input: ContextInput): ContextReport {
	const history: readonly Message[] = input.messages.length === 0 ? [{role: 'system', content: input.systemPrompt}] : input.messages;
	const {tokens} = new HistoryMeter().measure(history, input.imageTokens);
	const rows: ContextRow[] = [];
	let start = 0;
	const first = history[0];
	if (first?.role === 'system') {
		start = 1;
		const parts = instructionRows(first.content, input.instructions);
		const inParts = parts.reduce((sum, row) => sum + row.tokens, 0);
		rows.push({label: 'system prompt', tokens: tokens[0]! - inParts}, ...parts);
	}

	const tools = measureTools(input.tools.map(({name, description, parameters}) => ({name, description, parameters})));
	rows.push({label: `tools (${input.tools.length} schema${input.tools.length === 1 ? '' : 's'})`, tokens: tools.tokens});
	// Snapshot messages by their source (memory, skills); the rest are the conversation.
	const snapshots = new Map<string, {count: number; tokens: number}>();
	let conversation = {count: 0, tokens: 0};
	for (let index = start; index < history.length; index++) {
		const source = snapshotSource(history[index]!);
		const count = tokens[index]!;
		if (source === null) {
			conversation = {count: conversation.count + 1, tokens: conversation.tokens + count};
			continue;
		}

		const seen = snapshots.get(source) ?? {count: 0, tokens: 0};
		snapshots.set(source, {count: seen.count + 1, tokens: seen.tokens + count});
	}

	for (const [source, seen] of [...snapshots].sort(([a], [b]) => a.localeCompare(b))) rows.push({label: `${source} snapshot (${plural(seen.count, 'message')})`, tokens: seen.tokens});
	rows.push({label: `messages (${conversation.count})`, tokens: conversation.tokens});
	return {rows, total: rows.reduce((sum, row) => sum + row.tokens, 0), window: input.window, counted: providerCount(input, history, tokens)};
}

function providerCount(input: ContextInput, history: readonly Message[], measured: readonly number[]): ContextReport['counted'] {
	const {anchor} = input;
	if (anchor === null) return {why: 'no request of this session has been answered in this run yet'};
	const problem = anchorProblem(anchor, input.model, history, input.window?.tokens ?? null);
	if (problem !== null) return {why: `the last count cannot be used: ${problem}`};
	return {tokens: anchoredTokens(measured, anchor), input: anchor.input, output: anchor.output, since: history.length - anchor.request_messages - 1};
}

/** The instruction files inside the saved system prompt, each in the JSON-escaped bytes it adds to the message. */
function instructionRows(prompt: string, instructions: SessionInstructions): ContextRow[] {
	if (instructions.inSession && instructions.block !== '' && prompt.endsWith(instructions.block)) {
		return instructions.files.map(file => ({label: `${basename(file.path)} ${file.path}${file.cut ? ` (cut from ${file.bytes} bytes)` : ''}`, tokens: wireBytes(renderFileSection(file))}));
	}

	// A resumed session's instructions as it started (the files changed since): one part, from the block's heading on.
	const at = prompt.startsWith(`${INSTRUCTIONS_HEADING}\n`) ? 0 : prompt.indexOf(`\n\n${INSTRUCTIONS_HEADING}\n`);
	if (at === -1) return [];
	return [{label: 'AGENTS.md as this session started (the files changed since; /reload gives it the new ones)', tokens: wireBytes(prompt.slice(at))}];
}

/** Bytes a piece of a message's text takes in its JSON on the wire: escaping works character by character, so the pieces add up. */
function wireBytes(text: string): number {
	return Buffer.byteLength(JSON.stringify(text)) - 2;
}

function snapshotSource(message: Message): string | null {
	const mark = (message as unknown as Record<string, unknown>)[CONTEXT_MARKER];
	if (message.role !== 'user' || typeof mark !== 'object' || mark === null) return null;
	const {source} = mark as {source?: unknown};
	return typeof source === 'string' ? source : 'context';
}

function plural(count: number, word: string): string {
	return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The report as the /context notice shows it: one row a part, tokens and share right-aligned, the total last. */
export function formatContextReport(report: ContextReport): string {
	const share = (tokens: number) => (report.window === null ? '' : `${((tokens / report.window.tokens) * 100).toFixed(1)}%`);
	const lines = [...report.rows, {label: 'total (bytes)', tokens: report.total}];
	const labelWidth = Math.max(...lines.map(row => row.label.length));
	const numberWidth = Math.max(...lines.map(row => row.tokens.toLocaleString('en-US').length));
	const body = lines.map(row => `${row.label.padEnd(labelWidth)}  ${row.tokens.toLocaleString('en-US').padStart(numberWidth)}  ${share(row.tokens).padStart(6)}`.trimEnd());
	const window =
		report.window === null
			? 'no context window is known: set "budget": {"window": N} in the config, or choose a catalogue model that names one'
			: `shares of ${report.window.tokens.toLocaleString('en-US')} tokens: ${report.window.source}`;
	const {counted} = report;
	const provider =
		'why' in counted
			? `In the provider's tokens: not known (${counted.why}); the budget counts the bytes above, an upper bound.`
			: `In the provider's tokens: ${counted.tokens.toLocaleString('en-US')}${report.window === null ? '' : ` (${share(counted.tokens).trim()})`}, as the budget counts it: the provider's count of the last request (${counted.input.toLocaleString('en-US')} in, ${counted.output.toLocaleString('en-US')} out) and the bytes of ${plural(counted.since, 'message')} since.`;
	return ['The next request holds (an estimate: UTF-8 bytes on the wire, an upper bound on tokens; your next message comes on top)', ...body, provider, window].join('\n');
}
