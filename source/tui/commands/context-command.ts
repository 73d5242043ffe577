import type {ScreenCommand} from './command-context.js';

export const contextCommand: ScreenCommand = {
	name: '/context',
	usage: '/context',
	description: 'what the next request holds, in estimated tokens and share of the window',
	takesArguments: false,
	async run({agent, store}) {
		// The report's code (and the budget worker's meter) loads when it is asked for, not with the screen.
		store.notice('info', await (await import('./context-notice.js')).contextNotice(agent));
	},
};
