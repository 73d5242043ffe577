import {Lexer, type Token, type Tokens} from 'marked';
import {breakCodeLine, highlightLines} from './code-block.js';
import {inlineFragments, type InlineOptions} from './inline.js';
import {colors, merge, PLAIN, type Style} from './style.js';
import {renderTable} from './table.js';
import {paintRow, rowWidth, widthOf, wrapFragments, type Fragment, type Row} from './wrap.js';

/**
 * The model's Markdown as terminal rows, from marked's tokens (its lexer
 * only: the screen draws every element itself, fitted to the width), and
 * the split of a streamed answer into finished blocks and the open one.
 * This module and the highlighter are the chat screen's lazy chunk: loaded
 * after the first frame (run-tui.ts), never by -p, --json or line mode.
 */
export interface MarkdownOptions {
	/** SGR colours (off with NO_COLOR: bold, italic, underline and strike stay, so the layout is the same). */
	color: boolean;
	/** Links as OSC 8 hyperlinks (hyperlinks.ts decides). */
	hyperlinks: boolean;
}

export interface MarkdownRenderer {
	/** The text's rows at `width` columns, each at most that wide, styles closed at each row's end. */
	render(text: string, width: number): string[];
	/**
	 * Streamed text as the blocks that are finished (each block's own source,
	 * in order) and the source of the open block still growing. A block is
	 * finished once the lexer began another after it and that one's first
	 * line is complete (a line on its own may still turn out to continue the
	 * block before: "2" then "2. item" after a list).
	 */
	split(text: string): {finished: string[]; open: string};
}

const RULE: Style = {color: colors.gray};
const QUOTE: Style = {color: colors.gray};
const HEADINGS: readonly Style[] = [{bold: true, underline: true, color: colors.brightBlue}, {bold: true, color: colors.brightBlue}, {bold: true}];
const BULLETS = ['•', '◦', '▪'];

interface Context extends InlineOptions {
	listDepth: number;
}

export function createMarkdownRenderer(options: MarkdownOptions): MarkdownRenderer {
	const context: Context = {hyperlinks: options.hyperlinks, listDepth: 0};
	return {
		render(text, width) {
			const rows = blocks(lex(text), Math.max(1, width), context, true);
			return rows.map(row => paintRow(row, options.color));
		},
		split,
	};
}

function lex(text: string): Token[] {
	// GFM: tables, strikethrough, task lists, autolinked URLs.
	return new Lexer({gfm: true}).lex(text);
}

function split(text: string): {finished: string[]; open: string} {
	const tokens = lex(text);
	const starts: Array<{token: Token; at: number}> = [];
	let at = 0;
	for (const token of tokens) {
		if (token.type !== 'space') starts.push({token, at});
		at += token.raw.length;
	}

	// The lexer's blocks must be the text's own pieces to cut it there; if not (a lexer change), nothing is cut before the end.
	if (at !== text.length || tokens.map(token => token.raw).join('') !== text) return {finished: [], open: text};
	if (starts.length < 2) return {finished: [], open: text};
	const last = starts.at(-1)!;
	const keep = text.includes('\n', last.at) ? starts.length - 1 : starts.length - 2;
	if (keep <= 0) return {finished: [], open: text};
	const finished = starts.slice(0, keep).map(({token}) => token.raw.replace(/\n+$/, ''));
	return {finished, open: text.slice(starts[keep]!.at)};
}

/** Blocks one under another; `gaps`: a blank row between two (top level, block quotes, loose list items). */
function blocks(tokens: readonly Token[], width: number, context: Context, gaps: boolean): Row[] {
	const out: Row[] = [];
	for (const token of tokens) {
		const rows = block(token, width, context);
		if (rows.length === 0) continue;
		if (gaps && out.length > 0) out.push([]);
		out.push(...rows);
	}

	return out;
}

function block(token: Token, width: number, context: Context): Row[] {
	switch (token.type) {
		case 'space': {
			return [];
		}

		case 'heading': {
			const heading = token as Tokens.Heading;
			const style = HEADINGS[Math.min(heading.depth, HEADINGS.length) - 1]!;
			return wrapFragments(inlineFragments(heading.tokens, style, context), width);
		}

		case 'paragraph': {
			return wrapFragments(inlineFragments((token as Tokens.Paragraph).tokens, PLAIN, context), width);
		}

		case 'text': {
			const text = token as Tokens.Text;
			return wrapFragments(text.tokens ? inlineFragments(text.tokens, PLAIN, context) : [{text: text.text.replaceAll('\n', ' '), style: PLAIN}], width);
		}

		case 'code': {
			const code = token as Tokens.Code;
			return codeBlock(code.text, (code.lang ?? '').trim().split(/\s+/)[0] ?? '', width);
		}

		case 'blockquote': {
			const inner = blocks((token as Tokens.Blockquote).tokens, Math.max(1, width - 2), context, true);
			return inner.map(row => [{text: '│ ', style: QUOTE}, ...row]);
		}

		case 'list': {
			return list(token as Tokens.List, width, context);
		}

		case 'table': {
			const table = token as Tokens.Table;
			const cell = (item: Tokens.TableCell) => inlineFragments(item.tokens, PLAIN, context);
			return renderTable(
				table.header.map(cell),
				table.rows.map(row => row.map(cell)),
				table.align,
				width,
			);
		}

		case 'hr': {
			return [[{text: '─'.repeat(width), style: RULE}]];
		}

		case 'def': {
			// A link reference definition: kept visible, since a reference above it was already drawn as text.
			const def = token as Tokens.Def;
			return wrapFragments([{text: `[${def.tag}]: ${def.href}`, style: {dim: true}}], width);
		}

		default: {
			// html blocks and anything else: as written.
			const text = token.raw.replace(/\n+$/, '');
			return text.split('\n').flatMap(line => wrapFragments([{text: line, style: PLAIN}], width));
		}
	}
}

/**
 * A fenced or indented code block: a rule with the language above, a rule
 * below, and the code between them from the row's first column with nothing
 * else on its rows, so selecting those rows copies the code (a line longer
 * than the row is cut into rows; copying gives it in those pieces).
 */
function codeBlock(code: string, language: string, width: number): Row[] {
	const label = language === '' ? '' : ` ${language} `;
	const top = widthOf(label) + 2 <= width ? `──${label}${'─'.repeat(width - 2 - widthOf(label))}` : '─'.repeat(width);
	const rows: Row[] = [[{text: top, style: RULE}]];
	for (const line of highlightLines(code, language)) rows.push(...breakCodeLine(line, width));
	rows.push([{text: '─'.repeat(width), style: RULE}]);
	return rows;
}

function list(token: Tokens.List, width: number, context: Context): Row[] {
	const start = typeof token.start === 'number' ? token.start : 1;
	const markers = token.items.map((item, index) => marker(token, item, start + index, context.listDepth));
	const markerWidth = Math.max(...markers.map(row => rowWidth(row)));
	const inner: Context = {...context, listDepth: context.listDepth + 1};
	const contentWidth = Math.max(1, width - markerWidth - 1);
	const out: Row[] = [];
	for (const [index, item] of token.items.entries()) {
		if (token.loose && index > 0) out.push([]);
		const content = item.tokens.filter(child => child.type !== 'checkbox');
		const rows = blocks(content, contentWidth, inner, item.loose);
		if (rows.length === 0) rows.push([]);
		const own = markers[index]!;
		const pad = ' '.repeat(markerWidth - rowWidth(own));
		for (const [line, row] of rows.entries()) {
			const prefix: Row = line === 0 ? [{text: pad, style: PLAIN}, ...own, {text: ' ', style: PLAIN}] : [{text: ' '.repeat(markerWidth + 1), style: PLAIN}];
			out.push(row.length === 0 ? (line === 0 ? prefix : []) : [...prefix, ...row]);
		}
	}

	return out;
}

function marker(token: Tokens.List, item: Tokens.ListItem, number: number, depth: number): Row {
	const task: Fragment[] = item.task ? [item.checked ? {text: '[x]', style: merge(PLAIN, {color: colors.green})} : {text: '[ ]', style: PLAIN}] : [];
	if (token.ordered) return [{text: `${number}.`, style: {color: colors.cyan}}, ...(task.length > 0 ? [{text: ' ', style: PLAIN}, ...task] : [])];
	if (task.length > 0) return task;
	return [{text: BULLETS[depth % BULLETS.length]!, style: {color: colors.cyan}}];
}
