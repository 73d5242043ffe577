import type {ScreenCommand} from './command-context.js';

const usage = '/rename NAME (letters, digits, ".", "_" and "-")';

export const renameCommand: ScreenCommand = {
	name: '/rename',
	usage,
	description: 'rename this session: /rename NAME',
	takesArguments: true,
	async run({store, sessions}, args) {
		if (args === '' || /\s/.test(args)) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		await sessions.rename(args);
	},
};
