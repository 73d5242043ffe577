import {readFile, stat} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import * as z from 'zod/mini';
import {parseArguments} from './arguments.js';
import {toParameters} from './parameters.js';
import {ToolInputError, ToolRunError, type Tool, type ToolContext, type ToolResult} from './types.js';

/** spec/extensions.md §10: a model asked to write an extension reads `authoring` or `debugging` first; `agent` walks through a whole package. */
export const DOCS_TOPICS = ['authoring', 'debugging', 'agent'] as const;
export type DocsTopic = (typeof DOCS_TOPICS)[number];

/** Not a spec limit: a guide is a few pages; a file past this is no guide of ours, and is not read into memory. */
export const MAX_GUIDE_BYTES = 256 * 1024;
/** The package is found above this module within this many folders (dist/source/core/tools is the deepest layout). */
const MAX_PACKAGE_DEPTH = 8;
const PACKAGE_NAME = 'i-agent';

// Sent with every request: kept short; the guides say the rest.
const schema = z.strictObject({
	topic: z.enum(DOCS_TOPICS).check(z.describe('authoring: the extension API; debugging: loading and failures; agent: a package layout and the steps')),
	section: z.optional(z.string().check(z.minLength(1), z.describe('One heading of the guide, e.g. "Tools"; default the whole guide'))),
});

/**
 * `docs`: this version's own guides to extensions, read at run time from
 * the package `i` runs from (`docs/extensions/<topic>.md`, shipped in its
 * `files`), so what the model reads is what the installed copy does, and
 * what a person reads in that folder too. Read-only: it never asks.
 */
export function createDocsTool(): Tool {
	return {
		name: 'docs',
		readOnly: true,
		description: "This version of i's own guides to its extensions. Read topic authoring before writing or changing an i extension: the API is what it says, not what other agents have.",
		parameters: toParameters(schema),
		async plan(args, context) {
			const input = parseArguments('docs', schema, args);
			return {ask: null, run: async () => readGuide(input.topic, input.section, context)};
		},
	};
}

let found: Promise<{root: string; version: string}> | undefined;

/** i's package folder and version: the nearest folder above this module whose package.json is i-agent's, in a checkout, its build or an installed copy alike. */
async function packageRoot(): Promise<{root: string; version: string}> {
	const start = dirname(fileURLToPath(import.meta.url));
	let folder = start;
	for (let depth = 0; depth < MAX_PACKAGE_DEPTH; depth++) {
		const manifest = await readFile(join(folder, 'package.json'), 'utf8').then(
			text => JSON.parse(text) as {name?: unknown; version?: unknown},
			() => undefined,
		);
		if (manifest?.name === PACKAGE_NAME) return {root: folder, version: typeof manifest.version === 'string' ? manifest.version : 'unknown'};

		const parent = dirname(folder);
		if (parent === folder) break;
		folder = parent;
	}

	throw new ToolRunError(`docs: found no package.json of ${PACKAGE_NAME} above ${start}; this copy of i is incomplete: reinstall it`);
}

async function readGuide(topic: DocsTopic, section: string | undefined, context: ToolContext): Promise<ToolResult> {
	found ??= packageRoot();
	// A failed look is not kept: the next call looks again.
	const {root, version} = await found.catch((error: unknown) => {
		found = undefined;
		throw error;
	});
	const file = join(root, 'docs', 'extensions', `${topic}.md`);
	const size = await stat(file).then(
		stats => stats.size,
		() => undefined,
	);
	if (size === undefined) throw new ToolRunError(`docs: this copy of i has no guide ${file}; reinstall it`);
	if (size > MAX_GUIDE_BYTES) throw new ToolRunError(`docs: ${file} is ${size} bytes, over the ${MAX_GUIDE_BYTES / 1024} KiB a guide takes`);
	const guide = await readFile(file, 'utf8');
	const header = `i ${version}, docs topic "${topic}"${section === undefined ? '' : `, section "${section}"`} (${file})\n\n`;
	const body = section === undefined ? guide : sectionOf(guide, section, topic);
	return {output: withinLimit(header, body, guide, context.outputLimit), display: `docs ${topic}${section === undefined ? '' : ` § ${section}`}`};
}

interface Heading {
	line: number;
	level: number;
	title: string;
}

/** The guide's `##` and `###` headings, outside code blocks. */
function headings(lines: readonly string[]): Heading[] {
	const found: Heading[] = [];
	let fenced = false;
	for (const [line, text] of lines.entries()) {
		if (text.startsWith('```')) fenced = !fenced;
		const match = fenced ? null : /^(#{2,3}) (.+)$/.exec(text);
		if (match) found.push({line, level: match[1]!.length, title: match[2]!.trim()});
	}

	return found;
}

/** One heading's part: its line to the next heading of the same level or above. An unknown one is an error listing the headings. */
function sectionOf(guide: string, wanted: string, topic: DocsTopic): string {
	const lines = guide.split('\n');
	const all = headings(lines);
	const index = all.findIndex(heading => heading.title.toLowerCase() === wanted.trim().toLowerCase());
	if (index === -1) throw new ToolInputError(`docs: the ${topic} guide has no section ${JSON.stringify(wanted)}; its sections are ${all.map(heading => JSON.stringify(heading.title)).join(', ')}`);
	const heading = all[index]!;
	const end = all.slice(index + 1).find(next => next.level <= heading.level)?.line ?? lines.length;
	return `${lines.slice(heading.line, end).join('\n').trimEnd()}\n`;
}

/** Header and text within the call's output limit; cut at a line, saying where the rest is. */
function withinLimit(header: string, body: string, guide: string, limit: number): string {
	if (header.length + body.length <= limit) return header + body;
	const sections = headings(guide.split('\n'))
		.filter(heading => heading.level === 2)
		.map(heading => JSON.stringify(heading.title));
	const footer = `\n… cut at the output limit, ${body.length} characters in all; read the rest one section at a time: ${sections.join(', ')}`;
	const room = Math.max(0, limit - header.length - footer.length);
	const cut = body.lastIndexOf('\n', room);
	return header + body.slice(0, cut > 0 ? cut : room) + footer;
}
