import * as z from 'zod/mini';
import {workerBindingSchema} from '../config/schema.js';
import {UsageError} from '../errors.js';
import {lifecycleEvents} from '../lifecycle/event-names.js';
import type {LoadedPlugins, ManifestHook, ManifestTool, WorkerSpec} from '../pool/types.js';
import {describeIssues} from '../tools/arguments.js';
import {nativeToolNames} from '../tools/native-tool-names.js';
import type {GeneratedManifest} from './generate-manifest.js';
import {compileJsonSchema} from './json-schema.js';
import {resolveWorker} from './resolve-worker.js';
import type {ResolveEntry} from './shared-resolution.js';

/** spec/platform.md §1: tool names are 1–64 ASCII letters, digits, `_` and `-`. */
const MAX_TOOL_NAME_LENGTH = 64;
const toolNamePattern = /^[A-Za-z0-9_-]+$/;

const workerFields = {
	...workerBindingSchema.shape,
	/** The official module an entry belongs to: identification only, never sent to the model. */
	module: z.optional(z.string().check(z.minLength(1))),
};

/** Tool and hook entries may opt their worker into prefix-reuse frames (source/core/pool/prefix-reuse.ts). */
const entryFields = {...workerFields, prefix_reuse: z.optional(z.boolean())};

const manifestSchema = z.strictObject({
	tools: z._default(
		z.array(
			z.strictObject({
				name: z.string(),
				description: z.string(),
				parameters: z.record(z.string(), z.unknown()),
				...entryFields,
			}),
		),
		[],
	),
	hooks: z._default(z.array(z.strictObject({events: z.array(z.string()).check(z.minLength(1)), ...entryFields})), []),
	provider: z.optional(z.strictObject(workerFields)),
});

export interface ParseManifestOptions {
	/** Prefixes every error: `manifest /x/tools.json`. */
	label: string;
	/** The file the entries came from, recorded on each for messages. */
	file: string;
	/** Where a missing or relative `cwd` points: the manifest's folder. */
	baseDir: string;
	/** Tool names declared so far by earlier manifests, each with where: names are unique across all of them. */
	declaredTools: Map<string, string>;
	/**
	 * Prove each tool's parameters a valid JSON Schema with ajv. Off only for
	 * tables we ship and test (official modules), so a start without
	 * third-party tools never loads ajv.
	 */
	checkSchemas: boolean;
	/**
	 * Resolves each entry's worker; `resolveWorker` unless the caller shares
	 * one resolution across entries (load-plugins.ts: every official entry
	 * names the same host and folder).
	 */
	resolve?: ResolveEntry;
	/** Who provides each tool, by its module, for approvals; without it a tool is its manifest's worker's (tool-owner.ts `pluginOwner`). */
	owner?: (module: string | undefined) => string | undefined;
}

/**
 * Validates a parsed manifest (spec/platform.md §1) and resolves its workers. Unknown
 * fields are errors; every error names the manifest, the entry
 * (`tools[2] "my_tool"`, `hooks[0]`) and the rule it broke.
 */
export async function parseManifest(json: unknown, options: ParseManifestOptions): Promise<LoadedPlugins> {
	const {label} = options;
	if (json === null || typeof json !== 'object' || Array.isArray(json)) {
		throw new UsageError(`${label}: must be a JSON object with "tools", "hooks" and/or "provider"`);
	}

	const parsed = manifestSchema.safeParse(json);
	if (!parsed.success) throw new UsageError(`${label}: ${describeManifestIssues(parsed.error.issues, json as Record<string, unknown>)}`);
	return checkManifest(parsed.data, options);
}

/**
 * The manifest a builtin profile generates (generate-manifest.ts): typed by
 * the code that made it, so it skips the schema, which is for files from
 * outside (zod would build the parser at its first use in every start);
 * every other rule applies as to a file's.
 */
export async function checkGeneratedManifest(manifest: GeneratedManifest, options: ParseManifestOptions): Promise<LoadedPlugins> {
	return checkManifest({tools: manifest.tools, hooks: manifest.hooks, provider: manifest.provider}, options);
}

type Manifest = z.infer<typeof manifestSchema>;

async function checkManifest(manifest: Manifest, options: ParseManifestOptions): Promise<LoadedPlugins> {
	const {label} = options;
	const resolve = options.resolve ?? resolveWorker;
	const tools: ManifestTool[] = [];
	for (const [index, entry] of manifest.tools.entries()) {
		const where = `${label}: ${entryLabel('tools', index, entry)}`;
		checkToolName(entry.name, where, options.declaredTools);
		if (entry.parameters.type !== 'object') {
			throw new UsageError(`${where}: "parameters" must be a JSON Schema for an object, with "type": "object" (it has "type": ${JSON.stringify(entry.parameters.type ?? null)})`);
		}

		if (options.checkSchemas) await checkSchema(entry.parameters, where);
		const owner = options.owner?.(entry.module);
		tools.push({
			name: entry.name,
			description: entry.description,
			parameters: entry.parameters,
			worker: entryWorker(entry, options.baseDir, where, resolve),
			...(entry.module === undefined ? {} : {module: entry.module}),
			manifest: options.file,
			...(owner === undefined ? {} : {owner}),
		});
		options.declaredTools.set(entry.name, `${entryLabel('tools', index, entry)} in ${label}`);
	}

	const hooks: ManifestHook[] = manifest.hooks.map((entry, index) => {
		const where = `${label}: ${entryLabel('hooks', index, entry)}`;
		checkEvents(entry.events, where);
		return {
			events: entry.events,
			worker: entryWorker(entry, options.baseDir, where, resolve),
			...(entry.module === undefined ? {} : {module: entry.module}),
			manifest: options.file,
		};
	});

	const provider: WorkerSpec | null = manifest.provider ? resolve(manifest.provider, options.baseDir, `${label}: provider`) : null;
	return {tools, hooks, provider};
}

function entryWorker(entry: {exec: string[]; cwd?: string | undefined; prefix_reuse?: boolean | undefined}, baseDir: string, where: string, resolve: ResolveEntry): WorkerSpec {
	const spec = resolve(entry, baseDir, where);
	return entry.prefix_reuse === true ? {...spec, prefixReuse: true} : spec;
}

function checkToolName(name: string, where: string, declared: Map<string, string>): void {
	if (name.length === 0 || name.length > MAX_TOOL_NAME_LENGTH || !toolNamePattern.test(name)) {
		const got =
			name.length > MAX_TOOL_NAME_LENGTH
				? `this one has ${name.length} characters`
				: name.length === 0
					? 'this one is empty'
					: `this one has ${[...new Set(name.replaceAll(/[A-Za-z0-9_-]/g, ''))].map(character => JSON.stringify(character)).join(', ')}`;
		throw new UsageError(`${where}: a tool name must be 1–${MAX_TOOL_NAME_LENGTH} ASCII letters, digits, "_" or "-" (${got})`);
	}

	if ((nativeToolNames as readonly string[]).includes(name)) {
		throw new UsageError(`${where}: "${name}" is a built-in tool, which a manifest may not replace; rename the tool`);
	}

	const earlier = declared.get(name);
	if (earlier !== undefined) {
		throw new UsageError(`${where}: tool "${name}" is already declared by ${earlier}; tool names must be unique across all manifests`);
	}
}

async function checkSchema(parameters: Record<string, unknown>, where: string): Promise<void> {
	try {
		await compileJsonSchema(parameters);
	} catch (error) {
		throw new UsageError(`${where}: "parameters" is not a valid JSON Schema (${(error as Error).message})`);
	}
}

const knownEvents: readonly string[] = lifecycleEvents;

function checkEvents(events: readonly string[], where: string): void {
	const unknown = events.filter(event => event !== '*' && !knownEvents.includes(event));
	if (unknown.length > 0) {
		throw new UsageError(
			`${where}: unknown event${unknown.length === 1 ? '' : 's'} ${unknown.map(event => JSON.stringify(event)).join(', ')}; ` + `"events" lists lifecycle events (${lifecycleEvents.join(', ')}) or "*" for all`,
		);
	}

	if (events.includes('*') && events.length > 1) throw new UsageError(`${where}: "*" already means every event; list it alone`);
	const repeated = events.find((event, index) => events.indexOf(event) !== index);
	if (repeated !== undefined) throw new UsageError(`${where}: "events" lists "${repeated}" twice`);
}

/** `tools[2] "my_tool"`, `hooks[0] (module "compact")`: how errors point at an entry. */
function entryLabel(section: 'tools' | 'hooks', index: number, entry: unknown): string {
	const record = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
	const name = section === 'tools' && typeof record.name === 'string' ? ` ${JSON.stringify(record.name)}` : '';
	const module = typeof record.module === 'string' ? ` (module ${JSON.stringify(record.module)})` : '';
	return `${section}[${index}]${name}${module}`;
}

/** Zod issues, each pointed at its entry: `tools[1] "x": exec is required`. */
function describeManifestIssues(issues: readonly z.core.$ZodIssue[], json: Record<string, unknown>): string {
	return issues
		.slice(0, 5)
		.map(issue => {
			const [section, index, ...rest] = issue.path;
			if ((section === 'tools' || section === 'hooks') && typeof index === 'number') {
				const entry = (json[section] as unknown[])[index];
				return `${entryLabel(section, index, entry)}: ${describeIssues([{...issue, path: rest}], entry, 'the entry')}`;
			}

			if (section === 'provider') {
				return `provider: ${describeIssues([{...issue, path: issue.path.slice(1)}], json.provider, 'the entry')}`;
			}

			if (issue.code === 'unrecognized_keys') {
				return `${describeIssues([issue], json, 'the manifest')}; a manifest has "tools", "hooks" and "provider"`;
			}

			return describeIssues([issue], json, 'the manifest');
		})
		.join('; ');
}
