import type {WorkerSpec} from '../pool/types.js';
import {resolveWorker, type WorkerBinding} from './resolve-worker.js';

export type ResolveEntry = (binding: WorkerBinding, baseDir: string, where: string) => WorkerSpec;

/**
 * `resolveWorker` once per worker and folder for one load: the fifteen
 * entries of the standard profile all name the official host in the same
 * folder, and each resolution canonicalises the folder and checks the
 * program (a realpath and three stats). Each entry gets its
 * own copy. A binding that fails is not kept: every entry that names it
 * throws with its own place.
 */
export function sharedResolution(resolveOne: ResolveEntry = resolveWorker): ResolveEntry {
	const resolved = new Map<string, WorkerSpec>();
	return (binding, baseDir, where) => {
		const key = JSON.stringify([binding.exec, binding.cwd ?? null, baseDir, binding.sandbox ?? null]);
		let spec = resolved.get(key);
		if (spec === undefined) {
			spec = resolveOne(binding, baseDir, where);
			resolved.set(key, spec);
		}

		return {...spec, exec: [...spec.exec]};
	};
}
