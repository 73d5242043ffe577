import type {ScreenCommand} from './command-context.js';

export const reloadCommand: ScreenCommand = {
	name: '/reload',
	usage: '/reload',
	description: 'load every extension, AGENTS.md and the permission rules again (i dev: build first)',
	takesArguments: false,
	async run({store, sessions, extensions}) {
		store.setBusy(true);
		try {
			// The instructions first: the extensions' notice is the reload's last word, as before (the permission rules are read again within it).
			const {changed, instructions} = await sessions.readInstructions();
			const count = instructions.files.length;
			if (count > 0 || changed) store.notice('info', `AGENTS.md: ${count === 0 ? 'none now' : `${count} file${count === 1 ? '' : 's'} read`}${changed ? "; the session's system prompt now holds them" : ''}`);
			await extensions.reload();
		} finally {
			store.setBusy(false);
		}
	},
};
