import {join, resolve} from 'node:path';
import {workerBindingSchema} from '../config/schema.js';
import {UsageError} from '../errors.js';
import {describeIssues} from '../tools/arguments.js';
import {isModuleName, moduleNames, type ModuleName} from './modules.js';
import {readJsonFile} from './read-json-file.js';
import type {WorkerBinding} from './resolve-worker.js';

/** This machine's worker replacements, in the config folder (spec/platform.md §1). */
export const BINDINGS_FILE = 'bindings.json';

export type BindingName = ModuleName | 'provider';

/** Module name (or `provider`) → the worker that replaces it; every `cwd` is absolute. */
export type Bindings = Partial<Record<BindingName, WorkerBinding>>;

/**
 * Reads `<configDir>/bindings.json`: `{"compact": {"exec": [...], "cwd": "..."}}`.
 * A missing file binds nothing. A relative `cwd` resolves against the config
 * folder, and a binding without one runs there, so the file means the same
 * wherever the generated manifest lands.
 */
export async function readBindings(configDir: string): Promise<Bindings> {
	const path = join(configDir, BINDINGS_FILE);
	const label = `bindings ${path}`;
	const json = await readJsonFile(path, label);
	if (json === undefined) return {};
	if (json === null || typeof json !== 'object' || Array.isArray(json)) {
		throw new UsageError(`${label}: must be a JSON object mapping a module name (or "provider") to {"exec": [...], "cwd": "..."}`);
	}

	const bindings: Bindings = {};
	for (const [name, value] of Object.entries(json)) {
		if (name !== 'provider' && !isModuleName(name)) {
			throw new UsageError(`${label}: unknown module ${JSON.stringify(name)}; bindable: ${[...moduleNames, 'provider'].join(', ')}`);
		}

		const parsed = workerBindingSchema.safeParse(value);
		if (!parsed.success) throw new UsageError(`${label}: "${name}": ${describeIssues(parsed.error.issues, value, 'the binding')}`);
		bindings[name] = {exec: parsed.data.exec, cwd: resolve(configDir, parsed.data.cwd ?? '.'), ...(parsed.data.sandbox === undefined ? {} : {sandbox: parsed.data.sandbox})};
	}

	return bindings;
}
