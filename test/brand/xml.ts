/**
 * A strict, dependency-free XML 1.0 reader for checking documents we emit:
 * it accepts the well-formed subset we use (declaration, elements,
 * attributes, text, the five predefined entities, character references,
 * comments, CDATA, processing instructions) and throws on anything else,
 * including a DOCTYPE, which our documents never need.
 */
export interface XmlElement {
	name: string;
	attributes: Record<string, string>;
	children: Array<XmlElement | string>;
}

const namePattern = /[:A-Z_a-z\u00C0-\uFFFD][-.0-9:A-Z_a-z\u00B7\u00C0-\uFFFD]*/y;
const invalidChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const declaration = /<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1(\s+encoding\s*=\s*(["'])[A-Za-z][-A-Za-z0-9._]*\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*\?>/y;
const predefined: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"};

export function parseXml(text: string): XmlElement {
	let pos = 0;
	const fail = (why: string): never => {
		throw new Error(`not well-formed XML at offset ${pos}: ${why}`);
	};

	const bad = invalidChar.exec(text);
	if (bad) {
		pos = bad.index;
		fail('a character XML does not allow');
	}

	const match = (pattern: RegExp): RegExpExecArray | null => {
		pattern.lastIndex = pos;
		const found = pattern.exec(text);
		if (found) pos = pattern.lastIndex;
		return found;
	};

	const name = (): string => match(namePattern)?.[0] ?? fail('expected a name');
	const space = (): boolean => match(/[ \t\r\n]+/y) !== null;
	const until = (end: string, what: string): string => {
		const stop = text.indexOf(end, pos);
		if (stop === -1) fail(`unterminated ${what}`);
		const body = text.slice(pos, stop);
		pos = stop + end.length;
		return body;
	};

	const decode = (raw: string): string => {
		if (raw.includes('<')) fail('"<" inside text or an attribute value');
		return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
			if (ref === undefined) return fail('"&" that starts no reference');
			if (ref in predefined) return predefined[ref]!;
			const code = /^#x[0-9a-fA-F]+$/.test(ref) ? Number.parseInt(ref.slice(2), 16) : /^#[0-9]+$/.test(ref) ? Number(ref.slice(1)) : fail(`unknown entity ${whole}`);
			const char = code <= 0x10_ffff ? String.fromCodePoint(code) : fail(`reference ${whole} out of range`);
			if (invalidChar.test(char)) fail(`reference ${whole} to a character XML does not allow`);
			return char;
		});
	};

	/** Comments and processing instructions, allowed between the markup that matters. */
	const misc = (): boolean => {
		if (text.startsWith('<!--', pos)) {
			pos += 4;
			const body = until('-->', 'comment');
			if (body.includes('--') || body.endsWith('-')) fail('"--" inside a comment');
			return true;
		}

		if (text.startsWith('<?', pos)) {
			pos += 2;
			if (name().toLowerCase() === 'xml') fail('an XML declaration that is not at the very start');
			until('?>', 'processing instruction');
			return true;
		}

		return false;
	};

	const element = (): XmlElement => {
		if (text[pos] !== '<') fail('expected an element');
		pos++;
		const node: XmlElement = {name: name(), attributes: {}, children: []};
		for (;;) {
			const spaced = space();
			if (match(/\/>/y)) return node;
			if (match(/>/y)) break;
			if (!spaced) fail('expected white space before an attribute');
			const attribute = name();
			if (attribute in node.attributes) fail(`duplicate attribute ${attribute}`);
			space();
			if (!match(/=/y)) fail(`expected "=" after ${attribute}`);
			space();
			const quoted = match(/"([^"]*)"|'([^']*)'/y) ?? fail(`unquoted value of ${attribute}`);
			node.attributes[attribute] = decode(quoted[1] ?? quoted[2]!);
		}

		for (;;) {
			if (pos >= text.length) fail(`element ${node.name} is not closed`);
			if (text.startsWith('</', pos)) {
				pos += 2;
				const closing = name();
				if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
				space();
				if (!match(/>/y)) fail('expected ">"');
				return node;
			}

			if (text.startsWith('<![CDATA[', pos)) {
				pos += 9;
				node.children.push(until(']]>', 'CDATA section'));
			} else if (misc()) {
				// A comment or processing instruction: read past, nothing kept.
			} else if (text[pos] === '<') {
				node.children.push(element());
			} else {
				const stop = text.indexOf('<', pos);
				const raw = text.slice(pos, stop === -1 ? text.length : stop);
				if (raw.includes(']]>')) fail('"]]>" in text');
				node.children.push(decode(raw));
				pos += raw.length;
			}
		}
	};

	match(declaration);
	while (space() || misc());
	if (text.startsWith('<!', pos)) fail('a DOCTYPE or other declaration');
	const root = element();
	while (space() || misc());
	if (pos < text.length) fail('content after the root element');
	return root;
}

/** The child elements of `node` named `name`. */
export function childElements(node: XmlElement, name: string): XmlElement[] {
	return node.children.filter((child): child is XmlElement => typeof child !== 'string' && child.name === name);
}
