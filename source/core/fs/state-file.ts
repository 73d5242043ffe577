import {mkdirSync} from 'node:fs';
import {dirname} from 'node:path';
import type * as z from 'zod/mini';
import {describeIssues} from '../config/describe-issues.js';
import {errorMessage} from '../errors.js';
import {readConfigFileSync} from './read-config-file.js';
import {withLock} from './file-lock.js';
import {isAsWritten} from './written-digest.js';

/** How a state file is named in errors, and what the person can do about one that is too big or broken. */
export interface StateFileWords {
	/** `memory file`, `cache stats`. */
	label: string;
	maxBytes: number;
	/** After "the file is over M bytes, the limit; ". */
	tooBig: string;
	/** After "is corrupt (why); ". */
	corrupt: string;
	/** The kind of error thrown (a core file's problem is a usage error, exit 2); plain Error by default. */
	error?: new (
		message: string,
	) => Error;
}

/**
 * A JSON state file a worker keeps in the workspace state folder (memory,
 * cache statistics): its parsed JSON and `schema`'s reading of it, or
 * undefined when there is no file yet. A file that is too big, not JSON or
 * not in the shape is an error naming it; it is never reset behind the
 * person's back, since what it holds lives only there.
 */
export async function readStateFile<T>(
	path: string,
	schema: z.ZodMiniType<T>,
	words: StateFileWords,
	options: {
		/**
		 * The file is written through `noteWritten` (written-digest.ts): a text
		 * that is as written is taken as its JSON without running the schema.
		 * Only for schemas without transforms or defaults, whose reading of a
		 * valid text is its JSON.
		 */
		digest?: boolean;
	} = {},
): Promise<{json: unknown; data: T} | undefined> {
	const Failure = words.error ?? Error;
	// Synchronous inside: a state file is small (capped), read on every turn by a worker that serves one request
	// at a time, and three calls through the thread pool cost more than the reading. The shared reader never
	// waits on a FIFO: the workspace registry is read at every start.
	let bytes: Buffer | undefined;
	try {
		bytes = readConfigFileSync(path, {label: `${words.label} ${path}`, maxBytes: words.maxBytes, tooBig: `the limit; ${words.tooBig}`});
	} catch (error) {
		throw new Failure(errorMessage(error));
	}

	if (bytes === undefined) return undefined;
	const text = bytes.toString('utf8');
	const corrupt = (why: string) => new Failure(`${words.label} ${path} is corrupt (${why}); ${words.corrupt}`);
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw corrupt(`not valid JSON: ${(error as Error).message}`);
	}

	if (options.digest && isAsWritten(path, text)) return {json, data: json as T};
	const parsed = schema.safeParse(json);
	if (!parsed.success) throw corrupt(describeIssues(parsed.error.issues.slice(0, 1), json));
	return {json, data: parsed.data};
}

/** Runs a read-change-write of the state file at `path` under `<path>.lock`, its folder made first (synchronously: it is there after the first time). */
export async function withStateFile<T>(path: string, update: () => Promise<T>): Promise<T> {
	mkdirSync(dirname(path), {recursive: true});
	return withLock(`${path}.lock`, update);
}
