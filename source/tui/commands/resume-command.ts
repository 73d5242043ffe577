import type {ScreenCommand} from './command-context.js';

export const resumeCommand: ScreenCommand = {
	name: '/resume',
	usage: '/resume',
	description: "open another of this workspace's sessions (a picker: type to filter)",
	takesArguments: false,
	async run({sessions}) {
		await sessions.resume(false);
	},
};
