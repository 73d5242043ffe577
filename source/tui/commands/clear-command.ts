import type {ScreenCommand} from './command-context.js';

export const clearCommand: ScreenCommand = {
	name: '/clear',
	usage: '/clear',
	description: 'start a new session (the old one stays saved)',
	takesArguments: false,
	async run({sessions}) {
		await sessions.clear();
	},
};
