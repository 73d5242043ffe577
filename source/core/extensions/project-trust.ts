import {mkdir} from 'node:fs/promises';
import {join} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../config/describe-issues.js';
import {writeFileAtomic} from '../fs/atomic-write.js';
import {readJsonFile} from '../plugins/read-json-file.js';

/**
 * Whether a workspace's own code (project extensions, packages and
 * extension folders from its `.i/settings.json`) may run: asked once per
 * workspace in the chat screen and remembered in the workspace state folder
 * (spec/extensions.md §8). `undefined`: never decided.
 */
export type TrustDecision = {trusted: boolean; decidedAt: string; by: 'user' | 'flag' | 'extension'};

const fileName = 'trust.json';
const schema = z.strictObject({
	trusted: z.boolean(),
	decidedAt: z.string(),
	by: z.enum(['user', 'flag', 'extension']),
});

export function trustFile(stateDir: string): string {
	return join(stateDir, fileName);
}

/** The remembered decision, or undefined. A broken file is an error naming it: it is never taken for trust. */
export async function readTrust(stateDir: string): Promise<TrustDecision | undefined> {
	const path = trustFile(stateDir);
	const data = await readJsonFile(path, `trust file ${path}`);
	if (data === undefined) return undefined;
	const parsed = schema.safeParse(data);
	if (!parsed.success) throw new UsageError(`trust file ${path}: ${describeIssues(parsed.error.issues, data)}; delete it to be asked again`);
	return parsed.data;
}

/** Remembers a decision for the workspace, atomically. */
export async function writeTrust(stateDir: string, trusted: boolean, by: TrustDecision['by']): Promise<TrustDecision> {
	const decision: TrustDecision = {trusted, decidedAt: new Date().toISOString(), by};
	await mkdir(stateDir, {recursive: true});
	await writeFileAtomic(trustFile(stateDir), `${JSON.stringify(decision, null, '\t')}\n`);
	return decision;
}
