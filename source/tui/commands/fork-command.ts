import type {ScreenCommand} from './command-context.js';

export const forkCommand: ScreenCommand = {
	name: '/fork',
	usage: '/fork',
	description: 'continue in a copy of this session (the original stays as it is)',
	takesArguments: false,
	async run({sessions}) {
		await sessions.fork();
	},
};
