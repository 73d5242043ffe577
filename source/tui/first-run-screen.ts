import {dirname} from 'node:path';
import type {CliOptions} from '../cli-options.js';
import type {ChooserBroker} from './brokers/chooser-broker.js';
import type {KeyBroker} from './brokers/key-broker.js';
import type {ChatStore} from './chat-store.js';

/**
 * The first-run setup on this screen (first-run-setup.ts, loaded only now):
 * the catalogue as a run here would have it, the screen's chooser and key
 * field, the transcript for what went wrong. Aborting `signal` closes what
 * is open and leaves.
 */
export async function firstRunSetup(
	configPath: string,
	options: CliOptions,
	screen: {store: Pick<ChatStore, 'notice'>; chooser: Pick<ChooserBroker, 'ask' | 'cancel'>; keys: Pick<KeyBroker, 'ask' | 'cancel'>; signal: AbortSignal},
	keyGone?: {provider: string},
): Promise<import('./first-run-setup.js').FirstRunOutcome> {
	const {store, chooser, keys, signal} = screen;
	signal.addEventListener(
		'abort',
		() => {
			chooser.cancel();
			keys.cancel();
		},
		{once: true},
	);
	const [{runFirstRunSetup}, {loadRunCatalogue}] = await Promise.all([import('./first-run-setup.js'), import('../commands/run-catalogue.js')]);
	const outcome = await runFirstRunSetup(
		{
			configPath,
			keyGone,
			configDir: dirname(configPath),
			env: process.env,
			signal,
			// Its extensions' warnings are said by the start that follows; here only the catalogue counts. Project code needs the trust question, which that start asks.
			loadCatalogue: async () => loadRunCatalogue({...options, askTrust: undefined}, () => {}),
		},
		{choose: async request => chooser.ask(request), askKey: async request => keys.ask(request), notice: (level, text) => store.notice(level, text)},
	);
	if (outcome.kind === 'configured') {
		const others = outcome.written.filter(path => path !== configPath);
		const saved = outcome.config === 'written' ? `saved ${outcome.provider}/${outcome.model} as the default in ${configPath}` : `using ${configPath} as it is`;
		store.notice('info', `set up: ${saved}${others.length === 0 ? '' : `; also wrote ${others.join(', ')}`}`);
	}

	return outcome;
}
