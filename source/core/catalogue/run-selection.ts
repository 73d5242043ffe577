import type {LoadedConfig} from '../config/load-config.js';
import type {Selection} from './select-model.js';

/**
 * What chooses a run's model by catalogue: `--provider` / `--model` for this
 * run (over the config's choice), else the config's `provider` (a
 * catalogue id) and `model`; undefined for a config that chooses by
 * `protocol`, which keeps the built-in adapter, a provider worker or an
 * extension provider. The run and `i auth check` both ask it.
 */
export function runSelection(flags: {provider?: string | undefined; model?: string | undefined}, loaded: LoadedConfig): Selection | undefined {
	const {config} = loaded;
	const configured = typeof config.provider === 'string' ? config.provider : undefined;
	if (flags.provider !== undefined || flags.model !== undefined) {
		// --provider alone keeps the config's model when it is that provider's; else the provider's first.
		const model = flags.model ?? (flags.provider === configured ? config.model : undefined);
		return {provider: flags.provider, model, origin: flags.model !== undefined ? '--model' : '--provider'};
	}

	if (configured !== undefined) return {provider: configured, model: config.model, origin: `config ${loaded.path}`};
	return undefined;
}
