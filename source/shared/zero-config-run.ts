import {existsSync} from 'node:fs';
import type {CliOptions} from '../cli-options.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {configPath} from '../core/config/load-config.js';
import type {loadRunCatalogue} from '../commands/run-catalogue.js';

/** A run without config.json that found a provider: the `--model` it runs with and the one line that says so. */
export interface ZeroConfigRun {
	/** `provider/model`. */
	model: string;
	/** Said once, on stderr or as a notice on the chat screen: which model, why, and how to choose another. */
	notice: string;
}

/**
 * Issue 46 point 5: a run with no config.json and nothing on the command
 * line that chooses a model (no --config, --provider, --model or --api-key)
 * uses the first provider of ZERO_CONFIG_ORDER whose key resolves, with its
 * first model. Undefined when the run chose otherwise, when config.json
 * exists, when the catalogue cannot be read (the run then says why) or when
 * no key resolves (the run then prints the commands, or the chat screen
 * opens the setup).
 */
export async function zeroConfigRun(options: Pick<CliOptions, 'config' | 'provider' | 'model' | 'apiKey'> & Parameters<typeof loadRunCatalogue>[0]): Promise<ZeroConfigRun | undefined> {
	if (options.config !== undefined || options.provider !== undefined || options.model !== undefined || options.apiKey !== undefined) return undefined;
	let path: string;
	let configDir: string;
	try {
		configDir = checkedDirs().config_dir;
		path = configPath(undefined, configDir);
		if (existsSync(path)) return undefined;
		// Loaded only now: a configured run pays for none of it.
		const [{loadRunCatalogue: load}, {ZERO_CONFIG_ORDER, zeroConfigChoice}] = await Promise.all([import('../commands/run-catalogue.js'), import('../core/catalogue/zero-config.js')]);
		const built = await load(options, () => {});
		const choice = zeroConfigChoice(built, {configDir});
		if (!choice) return undefined;
		const model = `${choice.provider}/${choice.model}`;
		return {
			model,
			notice:
				`no config: ${path} does not exist, so this run uses ${model}, the first of ${ZERO_CONFIG_ORDER.join(', ')} whose key is set (key from ${choice.keySource}); ` +
				'choose another with --model (i --list-models lists them) or save one as the default (docs/providers.md)',
		};
	} catch {
		// The run itself reads the same folders and files, and says what is wrong with them.
		return undefined;
	}
}
