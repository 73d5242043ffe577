import type {ScreenCommand} from './command-context.js';
import {INIT_PROMPT} from './init-prompt.js';

export const initCommand: ScreenCommand = {
	name: '/init',
	usage: '/init',
	description: 'ask the model to write or improve AGENTS.md for this project',
	takesArguments: false,
	async run({turns}) {
		turns.start(INIT_PROMPT, '/init');
	},
};
