import path from 'node:path';
import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {resolveFromConfig} from '../../source/core/config/module-config.js';
import {DEFAULT_PROMPT_FOLDERS} from '../../source/core/resources/resource-folders.js';
import {findPromptTemplate, parseTemplateCommand} from '../../source/core/resources/prompt-template-file.js';
import {moduleConfigLoader} from '../serve/module-config-loader.js';
import {readPromptFile} from '../serve/prompt-file.js';
import {fillTemplate} from './template-arguments.js';
import {readTemplate} from './read-template.js';
import type {Handler, WorkerContext, WorkerDefinition} from '../serve/serve.js';
import {parseWorkerOptions} from '../serve/worker-options.js';

/** `prompts.json` (spec/platform.md §4): prompt files, relative to the config's folder. */
const promptsConfigSchema = z.strictObject({
	system: z.optional(z.string().check(z.minLength(1))),
	compact: z.optional(z.string().check(z.minLength(1))),
});

/**
 * `i --runtime worker prompts [--config FILE]`: `system_prompt` sets `prompt`
 * to the `system` file, `before_compact` to the `compact` file, with
 * `{{workspace}}` filled in. An unconfigured prompt leaves the data as it
 * is: the core's embedded default. `user_input` expands a prompt template:
 * a prompt `/name args` becomes `name.md` of the first prompt folder that
 * has one (the request's `resources`, else the workspace's `.i/prompts/`),
 * its placeholders filled; any other prompt passes unchanged. Files are
 * read at each request, so an edited prompt applies to the next turn.
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

	return {name: 'prompts', hooks: {system_prompt: promptFrom('system'), before_compact: promptFrom('compact'), user_input: expandTemplate}};
}

/** `user_input`: `content` (a text, or parts whose first is text) with a leading `/name …` replaced by the template. */
const expandTemplate: Handler = async (data, context) => {
	const {content} = data;
	const first = Array.isArray(content) ? (content[0] as {type?: unknown; text?: unknown} | undefined) : undefined;
	const text = typeof content === 'string' ? content : first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
	const command = text === undefined ? null : parseTemplateCommand(text);
	if (command === null) return data;
	const file = findPromptTemplate(promptFolders(context), command.name);
	if (file === undefined) return data;
	const expanded = fillTemplate(await readTemplate(file, context.workspace), command.args);
	return {...data, content: typeof content === 'string' ? expanded : [{...first, text: expanded}, ...(content as unknown[]).slice(1)]};
};

function promptFolders(context: WorkerContext): string[] {
	const named = context.resources?.prompts;
	if (named !== undefined) return named.map(folder => folder.path);
	return context.workspace === undefined ? [] : DEFAULT_PROMPT_FOLDERS.map(folder => path.join(context.workspace!, folder));
}
