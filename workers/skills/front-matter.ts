import {MAX_YAML_ALIAS_COUNT} from './limits.js';

/**
 * The YAML front matter of a SKILL.md: the lines between a first `---` line
 * and the next `---` line, read by the `yaml` package as one YAML 1.2
 * document of the core schema. What could hurt is refused: tags the core
 * schema does not know (YAML 1.1's `!!binary` and `!!set`, `!!js/…`, any
 * `!local` tag), more than one document, and aliases that would expand past
 * MAX_YAML_ALIAS_COUNT (an alias bomb); the file's size limit applies before
 * this. Errors name the file and the line.
 */

export interface SkillFile {
	/** The front matter's top-level keys, as YAML gives them. */
	fields: Record<string, unknown>;
	/** The 1-based line of each top-level key in the file, for messages. */
	lines: Record<string, number>;
	/** Everything after the closing `---`, leading blank lines dropped. */
	body: string;
}

export class FrontMatterError extends Error {}

/** The parser's options: the core schema only, no YAML 1.1 tags, no console output, errors as plain messages with offsets. */
const yamlOptions = {schema: 'core', resolveKnownTags: false, logLevel: 'silent', prettyErrors: false, uniqueKeys: true} as const;

export async function parseSkillFile(text: string, file: string): Promise<SkillFile> {
	const lines = text
		.replace(/^\uFEFF/, '')
		.split('\n')
		.map(line => line.replace(/\r$/, ''));
	const fail = (line: number | null, message: string): never => {
		throw new FrontMatterError(`${file}${line === null ? '' : ` line ${line}`}: ${message}`);
	};

	if (lines[0]?.trimEnd() !== '---') fail(1, 'a SKILL.md must start with YAML front matter: a "---" line, then name: and description:, then "---"');
	const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
	if (close === -1) fail(1, 'the front matter opened by "---" is never closed by another "---" line');
	const {fields, lines: keyLines} = await readYaml(lines.slice(1, close).join('\n'), fail);
	const body = lines
		.slice(close + 1)
		.join('\n')
		.replace(/^(?:[ \t]*\n)+/, '');
	return {fields, lines: keyLines, body};
}

type Fail = (line: number | null, message: string) => never;

/** The front matter's text (its first line is the file's line 2) as a map of keys and the line of each. */
async function readYaml(source: string, fail: Fail): Promise<Pick<SkillFile, 'fields' | 'lines'>> {
	// Loaded with the first SKILL.md: a workspace without skills never pays for the parser. The
	// package is CommonJS: its exports are the default export in node and in every bundle alike.
	const {LineCounter, isMap, isScalar, parseDocument} = (await import('yaml')).default;
	const counter = new LineCounter();
	// The file's line of an offset into `source`.
	const lineOf = (offset: number) => counter.linePos(offset).line + 1;
	let fields: unknown;
	const keyLines: Record<string, number> = {};
	try {
		const document = parseDocument(source, {...yamlOptions, lineCounter: counter});
		const problem = document.errors[0] ?? document.warnings[0];
		if (problem !== undefined) fail(lineOf(problem.pos[0]), `the front matter is not valid YAML: ${problem.message}`);
		fields = document.toJS({maxAliasCount: MAX_YAML_ALIAS_COUNT});
		if (isMap(document.contents)) {
			for (const pair of document.contents.items) {
				if (isScalar(pair.key) && pair.key.range) keyLines[String(pair.key.value)] = lineOf(pair.key.range[0]);
			}
		}
	} catch (error) {
		if (error instanceof FrontMatterError) throw error;
		// toJS throws a ReferenceError for an alias past the limit or one naming no anchor; a stack overflow is a RangeError.
		const reason = /Excessive alias count/.test((error as Error).message)
			? `its aliases expand past ${MAX_YAML_ALIAS_COUNT} nodes (an alias bomb?); write the values out`
			: `the front matter cannot be read as YAML (${(error as Error).message})`;
		fail(null, reason);
	}

	if (fields === null || fields === undefined) return {fields: {}, lines: keyLines};
	if (typeof fields !== 'object' || Array.isArray(fields)) fail(null, `the front matter must be a map of "key: value" lines, not ${Array.isArray(fields) ? 'a list' : 'a single value'}`);
	return {fields: fields as Record<string, unknown>, lines: keyLines};
}
