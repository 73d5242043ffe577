import type {ScreenCommand} from './command-context.js';

export const compactCommand: ScreenCommand = {
	name: '/compact',
	usage: '/compact',
	description: 'compact the history now (needs a compaction plugin)',
	takesArguments: false,
	async run({agent, store}) {
		store.setBusy(true);
		try {
			const result = await agent.compactNow(new AbortController().signal);
			store.notice(result === 'compacted' ? 'info' : 'warning', result === 'compacted' ? 'the history was compacted' : result);
		} catch (error) {
			store.notice('error', (error as Error).message);
		} finally {
			store.setBusy(false);
		}
	},
};
