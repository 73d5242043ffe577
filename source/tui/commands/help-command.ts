import type {ScreenCommand} from './command-context.js';

export const helpCommand: ScreenCommand = {
	name: '/help',
	usage: '/help',
	description: 'keys and commands',
	takesArguments: false,
	duringTurn: true,
	async run({store, commands}) {
		store.notice('info', commands.help());
	},
};
