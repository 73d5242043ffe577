/**
 * The YAML front matter of a SKILL.md, read with a small strict subset of
 * YAML (no dependency): top-level `key: value` lines where a value is a
 * scalar (plain, "double" or 'single' quoted, or a `|` / `>` block), a flow
 * list `[a, "b"]`, or an indented block of `- item` lines or of `key: scalar`
 * lines (a one-level map). Plain scalars resolve as YAML's core schema does
 * (true/false, null/~, numbers), so a number where text belongs is caught
 * by the type checks. Anything else (anchors, tags, flow maps, nesting
 * deeper than one level, tabs in indentation, duplicate keys) is refused
 * with an error naming the file and line, never guessed at.
 */

export type Scalar = string | number | boolean | null;
export type FrontMatterValue = Scalar | Scalar[] | Record<string, Scalar>;

export interface SkillFile {
	fields: Record<string, FrontMatterValue>;
	/** The 1-based line of each field's key, for messages. */
	lines: Record<string, number>;
	/** Everything after the closing `---`, leading blank lines dropped. */
	body: string;
}

export class FrontMatterError extends Error {}

const keyPattern = /^([A-Za-z0-9_-]+):(?:[ \t]+(.*))?$/;
const blockScalarPattern = /^([|>])(-?)(?:[ \t]+#.*)?$/;

export function parseSkillFile(text: string, file: string): SkillFile {
	const lines = text
		.replace(/^\uFEFF/, '')
		.split('\n')
		.map(line => line.replace(/\r$/, ''));
	const fail = (line: number, message: string): never => {
		throw new FrontMatterError(`${file} line ${line}: ${message}`);
	};

	if (lines[0]?.trimEnd() !== '---') fail(1, 'a SKILL.md must start with YAML front matter: a "---" line, then name: and description:, then "---"');
	const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
	if (close === -1) fail(1, 'the front matter opened by "---" is never closed by another "---" line');
	const fields: Record<string, FrontMatterValue> = {};
	const keyLines: Record<string, number> = {};
	let index = 1;
	while (index < close) {
		const line = lines[index]!;
		const number = index + 1;
		index++;
		if (isBlankOrComment(line)) continue;
		if (/^\s/.test(line)) fail(number, 'unexpected indentation; top-level keys start at the beginning of the line');
		const match = keyPattern.exec(line);
		if (!match) fail(number, 'expected "key: value" (a key of letters, digits, "-" or "_", a colon, a space, the value)');
		const key = match![1]!;
		if (Object.hasOwn(fields, key)) fail(number, `duplicate key "${key}" (first on line ${keyLines[key]})`);
		keyLines[key] = number;
		const rest = (match![2] ?? '').trim();
		// The indented lines that belong to this key.
		const start = index;
		while (index < close && (isBlankOrComment(lines[index]!) || /^\s/.test(lines[index]!))) index++;
		const nested = lines.slice(start, index).map((text, offset) => ({text, number: start + offset + 1}));
		const block = blockScalarPattern.exec(rest);
		if (block) {
			fields[key] = blockScalar(nested, block[1] === '>', block[2] === '-', fail);
		} else if (rest === '' || rest.startsWith('#')) {
			fields[key] = indentedBlock(key, number, nested, fail);
		} else {
			const meaningful = nested.filter(entry => !isBlankOrComment(entry.text));
			if (meaningful.length > 0) fail(meaningful[0]!.number, `unexpected indented line after "${key}: ${rest}" (a value spanning lines must be quoted on one line or written as a | or > block)`);
			fields[key] = inlineValue(rest, number, fail);
		}
	}

	const body = lines
		.slice(close + 1)
		.join('\n')
		.replace(/^(?:[ \t]*\n)+/, '');
	return {fields, lines: keyLines, body};
}

type Fail = (line: number, message: string) => never;
type Line = {text: string; number: number};

function isBlankOrComment(line: string): boolean {
	return /^\s*(?:#.*)?$/.test(line);
}

function indentOf(line: Line, fail: Fail): number {
	const indent = /^[ \t]*/.exec(line.text)![0];
	if (indent.includes('\t')) fail(line.number, 'a tab in indentation; YAML indents with spaces');
	return indent.length;
}

/** The `- item` lines of a list or the `key: scalar` lines of a one-level map, all at one indentation. */
function indentedBlock(key: string, number: number, nested: Line[], fail: Fail): Scalar[] | Record<string, Scalar> {
	const lines = nested.filter(line => !isBlankOrComment(line.text));
	if (lines.length === 0) fail(number, `"${key}" has no value`);
	const indent = indentOf(lines[0]!, fail);
	for (const line of lines) if (indentOf(line, fail) !== indent) fail(line.number, `inconsistent indentation under "${key}" (nesting deeper than one level is not supported)`);
	const isItem = (text: string) => /^-(?:[ \t]|$)/.test(text.trim());
	if (isItem(lines[0]!.text)) {
		return lines.map(line => {
			const item = line.text.trim();
			if (!isItem(item)) fail(line.number, `expected a "- item" line in the list "${key}"`);
			const value = item.slice(1).trim();
			if (value === '') fail(line.number, `an empty item in the list "${key}"`);
			return scalarValue(value, line.number, fail);
		});
	}

	const map: Record<string, Scalar> = {};
	for (const line of lines) {
		const match = keyPattern.exec(line.text.trim());
		if (!match) fail(line.number, `expected "key: value" in the map "${key}"`);
		const entry = match![1]!;
		if (Object.hasOwn(map, entry)) fail(line.number, `duplicate key "${entry}" in the map "${key}"`);
		const value = (match![2] ?? '').trim();
		if (value === '' || value.startsWith('#')) fail(line.number, `"${key}.${entry}" has no value (maps nest one level only)`);
		map[entry] = scalarValue(value, line.number, fail);
	}

	return map;
}

/** A `|` (lines kept) or `>` (lines folded into one) block; `-` drops the final newline. */
function blockScalar(nested: Line[], folded: boolean, strip: boolean, fail: Fail): string {
	let end = nested.length;
	while (end > 0 && nested[end - 1]!.text.trim() === '') end--;
	const lines = nested.slice(0, end);
	const content = lines.filter(line => line.text.trim() !== '');
	if (content.length === 0) return '';
	const indent = Math.min(...content.map(line => indentOf(line, fail)));
	const texts = lines.map(line => (line.text.trim() === '' ? '' : line.text.slice(indent)));
	const text = folded
		? texts.reduce((joined, line, at) => (at === 0 ? line : line === '' ? `${joined}\n` : joined.endsWith('\n') || joined === '' ? `${joined}${line}` : `${joined} ${line}`), '')
		: texts.join('\n');
	return strip ? text : `${text}\n`;
}

/** A value on the key's own line: a scalar or a flow list. */
function inlineValue(text: string, number: number, fail: Fail): FrontMatterValue {
	if (text.startsWith('{')) fail(number, 'flow maps ({…}) are not supported; write the map as indented "key: value" lines');
	if (!text.startsWith('[')) return scalarValue(text, number, fail);
	const items: Scalar[] = [];
	let at = 1;
	const skipSpace = () => {
		while (text[at] === ' ' || text[at] === '\t') at++;
	};

	skipSpace();
	if (text[at] === ']') {
		at++;
	} else {
		for (;;) {
			skipSpace();
			let item: string;
			if (text[at] === '"' || text[at] === "'") {
				const quoted = readQuoted(text, at, number, fail);
				item = text.slice(at, quoted.end);
				at = quoted.end;
			} else {
				const end = text.slice(at).search(/[,\]]/);
				if (end === -1) fail(number, 'the flow list "[" is never closed by "]" on the same line');
				item = text.slice(at, at + end).trim();
				at += end;
			}

			if (item === '') fail(number, 'an empty item in a flow list');
			if (/^[[{]/.test(item)) fail(number, 'lists nested in lists are not supported');
			items.push(scalarValue(item, number, fail));
			skipSpace();
			if (text[at] === ',') {
				at++;
				continue;
			}

			if (text[at] === ']') {
				at++;
				break;
			}

			fail(number, 'expected "," or "]" in the flow list');
		}
	}

	const after = text.slice(at).trim();
	if (after !== '' && !after.startsWith('#')) fail(number, `unexpected text after the flow list: ${JSON.stringify(after)}`);
	return items;
}

/** One scalar: quoted (exactly one string, then an optional comment) or plain. */
function scalarValue(text: string, number: number, fail: Fail): Scalar {
	if (text.startsWith('"') || text.startsWith("'")) {
		const {value, end} = readQuoted(text, 0, number, fail);
		const after = text.slice(end).trim();
		if (after !== '' && !after.startsWith('#')) fail(number, `unexpected text after the quoted value: ${JSON.stringify(after)}`);
		return value;
	}

	const plain = text.replace(/[ \t]+#.*$/, '').trim();
	const indicator = /^[&*!%@`|>?[\]{}]/.exec(plain);
	if (indicator) fail(number, `the YAML feature starting with "${indicator[0]}" is not supported here; quote the value if it is text`);
	if (/^-(?:[ \t]|$)/.test(plain)) fail(number, 'a value cannot start with "- " here; quote it, or put list items on their own indented lines');
	if (/:(?:[ \t]|$)/.test(plain)) fail(number, `the value ${JSON.stringify(plain)} contains ": "; quote it`);
	if (/^(?:true|True|TRUE)$/.test(plain)) return true;
	if (/^(?:false|False|FALSE)$/.test(plain)) return false;
	if (/^(?:null|Null|NULL|~)$/.test(plain)) return null;
	if (/^[-+]?(?:\d+|\d*\.\d+|\d+\.\d*)(?:[eE][-+]?\d+)?$/.test(plain)) return Number(plain);
	return plain;
}

const escapes: Record<string, string> = {'\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', ' ': ' '};

/** The quoted string starting at `start` (which holds the quote), and the index after its closing quote. */
function readQuoted(text: string, start: number, number: number, fail: Fail): {value: string; end: number} {
	const quote = text[start];
	let value = '';
	let at = start + 1;
	while (at < text.length) {
		const char = text[at]!;
		if (quote === "'") {
			if (char === "'") {
				if (text[at + 1] === "'") {
					value += "'";
					at += 2;
					continue;
				}

				return {value, end: at + 1};
			}
		} else if (char === '"') {
			return {value, end: at + 1};
		} else if (char === '\\') {
			const next = text[at + 1] ?? '';
			if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(at + 2, at + 6))) {
				value += String.fromCharCode(Number.parseInt(text.slice(at + 2, at + 6), 16));
				at += 6;
				continue;
			}

			if (!Object.hasOwn(escapes, next)) fail(number, `unsupported escape "\\${next}" in a double-quoted value`);
			value += escapes[next];
			at += 2;
			continue;
		}

		value += char;
		at++;
	}

	return fail(number, `the ${quote === '"' ? 'double' : 'single'}-quoted value is not closed on the same line`);
}
