import {rewindFlow} from '../rewind-flow.js';
import type {ScreenCommand} from './command-context.js';

export const rewindCommand: ScreenCommand = {
	name: '/rewind',
	usage: '/rewind',
	description: 'go back to before one of your prompts: the conversation, the files edit and write changed, or both (Esc twice does the same)',
	takesArguments: false,
	async run({agent, chooser, store, draft}) {
		await rewindFlow({agent, chooser, store, draft});
	},
};
