import type {ScreenCommand} from './command-context.js';

export const exitCommand: ScreenCommand = {
	name: '/exit',
	usage: '/exit',
	description: 'leave i',
	takesArguments: false,
	duringTurn: true,
	async run({leave}) {
		leave();
	},
};
