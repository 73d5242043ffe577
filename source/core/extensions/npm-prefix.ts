import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {acquireLock, LockBusyError, type FileLock} from '../fs/file-lock.js';
import {readConfigFile} from '../fs/read-config-file.js';

/** npm's record of a prefix: its manifest and lock file, as read before an install (to put back if the install is refused). */
export interface PrefixState {
	/** `name → spec` of the manifest's `dependencies`: what is installed there. */
	dependencies: Record<string, string>;
	manifest: Buffer | undefined;
	lock: Buffer | undefined;
}

/** A lock file of many packages is large; the manifest lists only what `i install` added. */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_LOCK_BYTES = 64 * 1024 * 1024;

const manifestSchema = z.looseObject({dependencies: z.optional(z.record(z.string(), z.string()))});

export async function readPrefix(prefix: string): Promise<PrefixState> {
	const manifestPath = join(prefix, 'package.json');
	const label = `npm manifest ${manifestPath}`;
	const manifest = await readConfigFile(manifestPath, {label, maxBytes: MAX_MANIFEST_BYTES, tooBig: 'too big for the list of installed extension packages'});
	const lock = await readConfigFile(join(prefix, 'package-lock.json'), {label: `npm lock file ${join(prefix, 'package-lock.json')}`, maxBytes: MAX_LOCK_BYTES, tooBig: 'too big for a lock file'});
	if (manifest === undefined) return {dependencies: {}, manifest, lock};
	let data: unknown;
	try {
		data = JSON.parse(manifest.toString('utf8'));
	} catch (error) {
		throw new UsageError(`${label}: not valid JSON (${(error as Error).message}); it is npm's list of the extension packages installed there: fix it, or delete the folder and install them again`);
	}

	const parsed = manifestSchema.safeParse(data);
	if (!parsed.success) throw new UsageError(`${label}: ${describeIssues(parsed.error.issues, data)}`);
	return {dependencies: parsed.data.dependencies ?? {}, manifest, lock};
}

/** Puts the manifest and lock file back as they were (a file that was not there is removed again). */
export async function restorePrefixFiles(prefix: string, state: PrefixState): Promise<void> {
	for (const [name, bytes] of [
		['package.json', state.manifest],
		['package-lock.json', state.lock],
	] as const) {
		const path = join(prefix, name);
		if (bytes === undefined) await rm(path, {force: true});
		else await writeFileAtomic(path, bytes);
	}
}

/** One `i install` or `i uninstall` changes a prefix at a time: `<prefix>.lock`, refused at once while another holds it. */
export async function lockPrefix(prefix: string): Promise<FileLock> {
	try {
		return await acquireLock(`${prefix}.lock`);
	} catch (error) {
		if (error instanceof LockBusyError) throw new Error(`another i install or i uninstall is changing ${prefix} (${error.message}); try again when it is done`);
		throw error;
	}
}
