import type {ScreenCommand} from './command-context.js';

const usage = "/diff, or /diff N with the number an approval's folded diff names";

/** An approval's number: no screen asks a billion questions, so more digits are a typo. */
const NUMBER = /^[1-9]\d{0,8}$/;

export const diffCommand: ScreenCommand = {
	name: '/diff',
	usage,
	description: "an approval's whole diff or command again: the last one, or /diff N",
	takesArguments: true,
	duringTurn: true,
	async run({store}, args) {
		if (args !== '' && !NUMBER.test(args)) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		const problem = store.showAsked(args === '' ? null : Number(args));
		if (problem !== null) store.notice('info', problem);
	},
};
