import {createRequire} from 'node:module';
import type {Terminal as TerminalType} from '@xterm/headless';
import type {TranscriptItem} from '../../source/tui/chat-state.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {createMarkdownRenderer, type MarkdownOptions, type MarkdownRenderer} from '../../source/tui/markdown/render-markdown.js';

// CommonJS only; no ESM entry node can load.
const require = createRequire(import.meta.url);
const {Terminal} = require('@xterm/headless') as {Terminal: typeof TerminalType};

export const COLOR: MarkdownOptions = {color: true, hyperlinks: false};

export interface Screen {
	/** Each row as the terminal shows it, trailing spaces trimmed. */
	rows: string[];
	terminal: TerminalType;
}

/** Rows written to an @xterm/headless screen of `cols` columns, read back as a person would see them. */
export async function onScreen(rows: readonly string[], cols: number): Promise<Screen> {
	const terminal = new Terminal({cols, rows: rows.length + 1, scrollback: 0, allowProposedApi: true});
	await new Promise<void>(resolve => terminal.write(rows.join('\r\n'), resolve));
	const buffer = terminal.buffer.active;
	const shown: string[] = [];
	for (let row = 0; row < rows.length; row++) shown.push(buffer.getLine(row)?.translateToString(true) ?? '');
	return {rows: shown, terminal};
}

export async function renderOnScreen(markdown: string, cols: number, options: MarkdownOptions = COLOR): Promise<Screen> {
	return onScreen(createMarkdownRenderer(options).render(markdown, cols), cols);
}

/** Streams `text` through a chat store in pieces of `size` characters, one frame after each; the answer's finished items. */
export async function streamThroughStore(text: string, size: number, renderer: MarkdownRenderer): Promise<{items: Array<Extract<TranscriptItem, {kind: 'assistant'}>>; opens: string[]}> {
	const store = new ChatStore({model: 'm', workspace: '/w', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	store.setMarkdown(renderer);
	const opens: string[] = [];
	for (let at = 0; at < text.length; at += size) {
		store.apply({type: 'text_delta', text: text.slice(at, at + size)});
		await new Promise(resolve => setImmediate(resolve));
		await new Promise(resolve => setTimeout(resolve, 0));
		opens.push(store.getSnapshot().partial);
	}

	store.apply({type: 'done', reason: 'stop', steps: 1});
	const items = store.getSnapshot().finished.filter((item): item is Extract<TranscriptItem, {kind: 'assistant'}> => item.kind === 'assistant');
	return {items, opens};
}

/** The rows an answer's finished items make in the scrollback, as AssistantText draws them. */
export function itemRows(items: ReadonlyArray<Extract<TranscriptItem, {kind: 'assistant'}>>, renderer: MarkdownRenderer, cols: number): string[] {
	return items.flatMap(item => [...(item.gap ? [''] : []), ...renderer.render(item.text, cols)]);
}
