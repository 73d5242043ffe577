import {join} from 'node:path';
import * as z from 'zod/mini';
import {UsageError} from '../errors.js';
import {describeIssues} from '../tools/arguments.js';
import {boundModuleOwner, officialModuleOwner} from '../tools/tool-owner.js';
import {BINDINGS_FILE, readBindings} from './bindings.js';
import {generateManifest, type GeneratedManifest} from './generate-manifest.js';
import {isProfileName, profileNames} from './profiles.js';
import {withoutUnusableTools} from './unusable-tools.js';
import {readSelection} from './selection.js';

/** The dynamic built-in descriptor `i --runtime init` writes into the config folder (spec/platform.md §1). */
export const BUILTIN_FILE = 'builtin.json';

export const defaultBuiltinDescriptor = {builtin_profile: 'configured', tools: []};

const descriptorSchema = z.strictObject({
	/** `configured`: the profile and `disabled` of plugins.json; or a profile name, pinned. */
	builtin_profile: z.string(),
	/** Extra static tool entries, in manifest form. */
	tools: z._default(z.array(z.unknown()), []),
});

/** A manifest file holding `builtin_profile` is a descriptor, resolved afresh at every start. */
export function isBuiltinDescriptor(json: unknown): boolean {
	return json !== null && typeof json === 'object' && !Array.isArray(json) && Object.hasOwn(json, 'builtin_profile');
}

export interface ResolvedBuiltin {
	/** The profile's manifest, generated for the running program with bindings.json applied. */
	manifest: GeneratedManifest;
	/** The descriptor's own `tools`, unvalidated: they are checked as manifest entries. */
	tools: unknown[];
	/** Names the profile, for error labels: `builtin profile "standard" of /c/builtin.json`. */
	label: string;
	/** Who provides a module's tools, for approvals: the official host, or the worker bindings.json put in its place. */
	owner: (module: string | undefined) => string | undefined;
	warnings: string[];
}

/**
 * Resolves a descriptor from the current program path and the selection
 * and bindings in `configDir`, so no path is ever stored and a moved or
 * upgraded program keeps working.
 */
export async function resolveBuiltin(json: unknown, file: string, configDir: string, program: readonly string[]): Promise<ResolvedBuiltin> {
	const parsed = descriptorSchema.safeParse(json);
	if (!parsed.success) throw new UsageError(`builtin descriptor ${file}: ${describeIssues(parsed.error.issues, json, 'the descriptor')}`);
	const {builtin_profile: wanted, tools} = parsed.data;
	const selection = wanted === 'configured' ? await readSelection(configDir) : isProfileName(wanted) ? {profile: wanted, disabled: []} : undefined;
	if (!selection) {
		throw new UsageError(`builtin descriptor ${file}: "builtin_profile" ${JSON.stringify(wanted)} is neither "configured" (the selection in plugins.json) nor a profile (${profileNames.join(', ')})`);
	}

	const bindings = await readBindings(configDir);
	const generated = generateManifest({...selection, bindings, program});
	const manifest = await withoutUnusableTools(generated.manifest, configDir, module => Object.hasOwn(bindings, module));
	const {warnings} = generated;
	const owner = (module: string | undefined) => (module === undefined ? undefined : Object.hasOwn(bindings, module) ? boundModuleOwner(module, join(configDir, BINDINGS_FILE)) : officialModuleOwner(module));
	return {manifest, tools, label: `builtin profile "${selection.profile}" of ${file}`, owner, warnings};
}
