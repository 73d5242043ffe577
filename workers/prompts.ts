import * as z from 'zod/mini';
import '../source/core/zod-english.js';
import {resolveFromConfig} from '../source/core/config/module-config.js';
import {moduleConfigLoader} from './module-config-loader.js';
import {readPromptFile} from './prompt-file.js';
import type {Handler, WorkerDefinition} from './serve.js';
import {parseWorkerOptions} from './worker-options.js';

/** `prompts.json` (seed §4): prompt files, relative to the config's folder. */
const promptsConfigSchema = z.strictObject({
	system: z.optional(z.string().check(z.minLength(1))),
	compact: z.optional(z.string().check(z.minLength(1))),
});

/**
 * `i --runtime worker prompts [--config FILE]`: `system_prompt` sets `prompt`
 * to the `system` file, `before_compact` to the `compact` file, with
 * `{{workspace}}` filled in. An unconfigured prompt leaves the data as it
 * is: the core's embedded default. Files are read at each request, so an
 * edited prompt applies to the next turn.
 */
export function createWorker(args: string[]): WorkerDefinition {
	const options = parseWorkerOptions('prompts', args);
	const config = moduleConfigLoader('prompts', promptsConfigSchema, options.config);
	const promptFrom =
		(field: 'system' | 'compact'): Handler =>
		async (data, context) => {
			const loaded = await config(context);
			const file = loaded.config[field];
			if (file === undefined) return data;
			return {...data, prompt: await readPromptFile(resolveFromConfig(loaded.path, file), context.workspace)};
		};

	return {name: 'prompts', hooks: {system_prompt: promptFrom('system'), before_compact: promptFrom('compact')}};
}
