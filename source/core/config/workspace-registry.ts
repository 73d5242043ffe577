import {createHash, randomUUID} from 'node:crypto';
import {join} from 'node:path';
import * as z from 'zod/mini';
import '../zod-english.js';
import {UsageError} from '../errors.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readStateFile, withStateFile} from '../fs/state-file.js';
import {noteWritten} from '../fs/written-digest.js';
import type {PlatformDirs} from './dirs.js';

/** spec/platform.md §3: the registry holds at most 10000 workspaces… */
export const MAX_WORKSPACES = 10_000;
/** …and is never read past 2 MB (10000 entries take about 1.1 MB). */
export const MAX_REGISTRY_BYTES = 2 * 1024 * 1024;

const uuidSchema = z.uuid();

/**
 * `data/workspaces.json`: the sha256 of each canonical workspace path and
 * its ID. Digests rather than paths keep the entries small and fixed-size.
 */
const registrySchema = z.strictObject({
	version: z.literal(1),
	workspaces: z.record(z.string().check(z.regex(/^[0-9a-f]{64}$/, 'keys must be sha256 digests (64 lowercase hex digits)')), uuidSchema),
});

type Registry = z.infer<typeof registrySchema>;

export function registryPath(dirs: PlatformDirs): string {
	return join(dirs.data_dir, 'workspaces.json');
}

/** Where a workspace's persistent state lives: memory, cache metrics. Whoever writes there creates it. */
export function workspaceStateDir(dirs: PlatformDirs, id: string): string {
	// The ID names a folder: anything but a UUID could reach outside `workspaces/`.
	if (!uuidSchema.safeParse(id).success) throw new UsageError(`workspace ID ${JSON.stringify(id)} is not a UUID`);
	return join(dirs.data_dir, 'workspaces', id);
}

/** The ID of a workspace already registered, without registering it: for commands that only read its state. */
export async function findWorkspaceId(workspace: string, dirs: PlatformDirs): Promise<string | undefined> {
	const digest = createHash('sha256').update(workspace).digest('hex');
	return (await readRegistry(registryPath(dirs))).workspaces[digest];
}

/**
 * The stable ID of a workspace, given its canonical path. A workspace seen
 * before keeps its ID and the registry is not written; a new one gets a
 * fresh UUID, added under the registry's lock with an atomic write. A
 * registry that is too big, full or corrupt is an error naming the file: it
 * is never replaced, since other workspaces' IDs live in it.
 */
export async function workspaceId(workspace: string, dirs: PlatformDirs): Promise<string> {
	const path = registryPath(dirs);
	const digest = createHash('sha256').update(workspace).digest('hex');
	const known = (await readRegistry(path)).workspaces[digest];
	if (known !== undefined) return known;

	return withStateFile(path, async () => {
		// Read again under the lock: another process may have added it meanwhile.
		const registry = await readRegistry(path);
		const found = registry.workspaces[digest];
		if (found !== undefined) return found;
		const count = Object.keys(registry.workspaces).length;
		if (count >= MAX_WORKSPACES) {
			throw new UsageError(
				`workspace registry ${path} is full (${count} workspaces, at most ${MAX_WORKSPACES}); cannot register ${workspace}. ` +
					'Remove entries of workspaces you no longer use (their state under workspaces/<id>/ goes with them)',
			);
		}

		const id = randomUUID();
		registry.workspaces[digest] = id;
		const text = `${JSON.stringify(registry, null, '\t')}\n`;
		await writeFileAtomic(path, text);
		await noteWritten(path, text);
		return id;
	});
}

async function readRegistry(path: string): Promise<Registry> {
	const read = await readStateFile(
		path,
		registrySchema,
		{
			label: 'workspace registry',
			maxBytes: MAX_REGISTRY_BYTES,
			tooBig: 'it is not read. Move it away to start a new one (workspaces then get new IDs)',
			corrupt: 'it is never replaced automatically: repair it, or move it away to start a new one (workspaces then get new IDs)',
			error: UsageError,
		},
		{digest: true},
	);
	return read?.data ?? {version: 1, workspaces: {}};
}
