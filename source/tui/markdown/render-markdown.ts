import {Lexer, type Token, type Tokens} from 'marked';
import {breakCodeLine, highlightLines} from './code-block.js';
import {inlineFragments, type InlineOptions} from './inline.js';
import {merge, PLAIN, type Style} from './style.js';
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
	 * The last `rows` rows of the open block, for the live area. A block of
	 * many lines (a long paragraph or code block still streaming) is drawn
	 * from its last lines only, so a frame costs the same however long it
	 * grew; its finished drawing (render) is the whole block's.
	 */
	renderTail(text: string, width: number, rows: number): string[];
	/**
	 * Streamed text as the blocks that are finished (each block's own source,
	 * in order) and the source of the open block still growing. A block is
	 * finished once the lexer began another after it and that one's first
	 * line is complete (a line on its own may still turn out to continue the
	 * block before: "2" then "2. item" after a list).
	 */
	split(text: string): Split;
}

export interface Split {
	/** The finished blocks' sources, in order. */
	finished: string[];
	open: string;
	/** The open text goes on the last finished block (a long paragraph cut between its lines): no blank row between them. */
	continues: boolean;
}

const RULE: Style = {color: 'muted'};
const QUOTE: Style = {color: 'muted'};
const HEADINGS: readonly Style[] = [{bold: true, underline: true, color: 'heading'}, {bold: true, color: 'heading'}, {bold: true}];
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
		renderTail(text, width, rows) {
			return this.render(tailSource(text, rows), width).slice(-rows);
		},
		split,
	};
}

function lex(text: string): Token[] {
	// GFM: tables, strikethrough, task lists, autolinked URLs. `breaks`: a line break in a paragraph stays one,
	// as in a GitHub comment: a model's lines (an address, a poem, a log) are meant as lines.
	return new Lexer({gfm: true, breaks: true}).lex(text);
}

/** Source lines past which the live area draws an open block from its end: rows of the screen times this. */
export const LIVE_SOURCE_FACTOR = 2;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;

/** The open block's source cut to its last lines (a fence keeps its opening line, so the rest is still code in its language). */
function tailSource(text: string, rows: number): string {
	const keep = rows * LIVE_SOURCE_FACTOR;
	const lines = text.split('\n');
	if (lines.length <= keep + 1) return text;
	const tail = lines.slice(-keep).join('\n');
	return FENCE.test(lines[0]!) ? `${lines[0]}\n${tail}` : tail;
}

/**
 * An open paragraph longer than this many lines is finished up to its last
 * two: each of its lines is a row of its own (`breaks`), so the rows come
 * out the same, and neither the live area nor the lexing of each frame grows
 * with it. (Emphasis open across the cut shows its marks.)
 */
export const LONG_PARAGRAPH_LINES = 10;

function split(text: string): Split {
	const {finished, open} = splitBlocks(text);
	let newlines = 0;
	for (let at = open.indexOf('\n'); at !== -1 && newlines <= LONG_PARAGRAPH_LINES; at = open.indexOf('\n', at + 1)) newlines++;
	if (newlines <= LONG_PARAGRAPH_LINES) return {finished, open, continues: false};
	const last = open.lastIndexOf('\n', open.lastIndexOf('\n') - 1);
	const head = open.slice(0, last);
	const tokens = lex(head).filter(token => token.type !== 'space');
	if (tokens.length !== 1 || tokens[0]!.type !== 'paragraph' || head.endsWith('\n')) return {finished, open, continues: false};
	return {finished: [...finished, head], open: open.slice(last + 1), continues: true};
}

function splitBlocks(text: string): {finished: string[]; open: string} {
	const tokens = lex(text);
	const starts: Array<{token: Token; at: number}> = [];
	let at = 0;
	for (const token of tokens) {
		// The lexer's blocks must be the text's own pieces to cut it there; if not (a lexer change), nothing is cut before the end.
		if (!text.startsWith(token.raw, at)) return {finished: [], open: text};
		if (token.type !== 'space') starts.push({token, at});
		at += token.raw.length;
	}

	if (at !== text.length) return {finished: [], open: text};
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
			return wrapFragments(text.tokens ? inlineFragments(text.tokens, PLAIN, context) : [{text: text.text, style: PLAIN}], width);
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
	// Numbers are right-aligned across the list (9. and 10. end in one column); a bullet or a task box is as wide as it is.
	const numberWidth = Math.max(...markers.map(row => rowWidth(row)));
	const inner: Context = {...context, listDepth: context.listDepth + 1};
	const out: Row[] = [];
	for (const [index, item] of token.items.entries()) {
		if (token.loose && index > 0) out.push([]);
		const own = markers[index]!;
		const markerWidth = token.ordered ? numberWidth : rowWidth(own);
		const content = item.tokens.filter(child => child.type !== 'checkbox');
		const rows = blocks(content, Math.max(1, width - markerWidth - 1), inner, item.loose);
		if (rows.length === 0) rows.push([]);
		const pad = ' '.repeat(markerWidth - rowWidth(own));
		for (const [line, row] of rows.entries()) {
			const prefix: Row = line === 0 ? [{text: pad, style: PLAIN}, ...own, {text: ' ', style: PLAIN}] : [{text: ' '.repeat(markerWidth + 1), style: PLAIN}];
			out.push(row.length === 0 ? (line === 0 ? prefix : []) : [...prefix, ...row]);
		}
	}

	return out;
}

function marker(token: Tokens.List, item: Tokens.ListItem, number: number, depth: number): Row {
	const task: Fragment[] = item.task ? [item.checked ? {text: '[x]', style: merge(PLAIN, {color: 'success'})} : {text: '[ ]', style: PLAIN}] : [];
	if (token.ordered) return [{text: `${number}.`, style: {color: 'listMarker'}}, ...(task.length > 0 ? [{text: ' ', style: PLAIN}, ...task] : [])];
	if (task.length > 0) return task;
	return [{text: BULLETS[depth % BULLETS.length]!, style: {color: 'listMarker'}}];
}
