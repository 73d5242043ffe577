import {dirname} from 'node:path';
import type {BuiltCatalogue} from '../core/catalogue/build-catalogue.js';
import {providerChoices} from '../core/catalogue/provider-choices.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {errorMessage, UsageError} from '../core/errors.js';
import type {ExtensionOptions} from '../core/session/start-extensions.js';
import {loadRunCatalogue} from '../commands/run-catalogue.js';

/** A word as the shell reads it: single-quoted unless it is plainly safe. */
function quoted(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * What a headless run without a model config says instead of only "does not
 * exist" (issue 16 item 5): the exact commands that choose a model, for the
 * catalogue's first provider whose key resolves (else its first with a
 * model): one run with --model, the config that saves it, and where its key
 * can come from. A UsageError (exit 2). `loaded`: the catalogue, when the
 * caller read it already.
 */
export async function firstRunError(path: string, options: ExtensionOptions & {cwd?: string | undefined}, loaded?: BuiltCatalogue): Promise<UsageError> {
	let choice: {provider: string; model: string; ready: boolean; auth: string; variable: string | undefined} | undefined;
	try {
		// The chat screen's setup, left, passes the catalogue it read.
		const built = loaded ?? (await loadRunCatalogue(options, () => {}));
		const choices = providerChoices(built, {configDir: checkedDirs().config_dir});
		// A provider whose key is there first; else one that needs a key (an anonymous local server may not be running).
		const usable = choices.filter(candidate => candidate.models.length > 0);
		const pick = usable.find(candidate => candidate.ready && candidate.needsKey) ?? usable.find(candidate => candidate.needsKey) ?? usable[0];
		if (pick) {
			const binding = built.bindings.get(pick.id);
			choice = {provider: pick.id, model: pick.models[0]!.id, ready: pick.ready, auth: pick.auth, variable: binding?.modelsJsonKeyEnv ?? binding?.apiKeyEnv};
		}
	} catch (error) {
		return new UsageError(`no model config: ${path} does not exist, and the catalogue could not be read (${errorMessage(error)}); create the config (docs/configuration.md) or pass --config FILE`);
	}

	if (!choice) return new UsageError(`no model config: ${path} does not exist and the catalogue has no model; create it (docs/configuration.md) or pass --config FILE`);
	const {provider, model} = choice;
	const config = JSON.stringify({provider, model});
	const key = choice.ready ? `${provider}: ${choice.auth}` : `${provider} has no key yet: ${choice.variable === undefined ? '' : `export ${choice.variable}=… or `}run i auth login ${provider}`;
	return new UsageError(
		[
			`no model config: ${path} does not exist. Choose a model:`,
			'  i --list-models',
			'      lists the catalogue: providers, models, prices, whether each key is set',
			`  i --model ${provider}/${model} -p ${quoted('hello')}`,
			'      one run with that model, no config needed',
			`  mkdir -p ${quoted(dirname(path))} && printf '%s\\n' ${quoted(config)} > ${quoted(path)}`,
			'      saves it as the default for every run',
			...(choice.ready ? [] : [`  i auth login ${provider}`, '      stores its key in auth.json (typed without echo)']),
			`(${key}). Or write a config by hand (docs/configuration.md) and pass --config FILE.`,
		].join('\n'),
	);
}
