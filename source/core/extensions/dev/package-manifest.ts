import {join} from 'node:path';
import * as z from 'zod/mini';
import {describeIssues} from '../../config/describe-issues.js';
import {UsageError} from '../../errors.js';
import {readJsonFile} from '../../plugins/read-json-file.js';

/** The fields of a package.json that `i dev` reads; every other field is kept as it is (the staged copy keeps them too). */
const manifestSchema = z.looseObject({
	name: z.optional(z.string().check(z.minLength(1))),
	scripts: z.optional(z.record(z.string(), z.string())),
	main: z.optional(z.string()),
	exports: z.optional(z.unknown()),
	files: z.optional(z.array(z.string())),
	workspaces: z.optional(z.union([z.array(z.string()), z.looseObject({packages: z.optional(z.array(z.string()))})])),
});

export type PackageManifest = z.infer<typeof manifestSchema>;

export interface ReadManifest {
	path: string;
	manifest: PackageManifest;
	/** The file as parsed, for the staged copy to keep every field. */
	data: Record<string, unknown>;
}

/** The package.json of `folder`, checked; undefined when it has none. A broken one is a UsageError naming the file and the field. */
export async function readPackageManifest(folder: string): Promise<ReadManifest | undefined> {
	const path = join(folder, 'package.json');
	const data = await readJsonFile(path, `package ${path}`);
	if (data === undefined) return undefined;
	const parsed = manifestSchema.safeParse(data);
	if (!parsed.success) throw new UsageError(`package ${path}: ${describeIssues(parsed.error.issues, data)}`);
	return {path, manifest: parsed.data, data: data as Record<string, unknown>};
}

/** The workspace patterns of a root package.json (`workspaces: [...]` or `{packages: [...]}`), or undefined when it is no workspace root. */
export function workspacePatterns(manifest: PackageManifest): string[] | undefined {
	const {workspaces} = manifest;
	if (workspaces === undefined) return undefined;
	return Array.isArray(workspaces) ? workspaces : (workspaces.packages ?? []);
}
