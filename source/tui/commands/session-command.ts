import type {ScreenCommand} from './command-context.js';

export const sessionCommand: ScreenCommand = {
	name: '/session',
	usage: '/session',
	description: 'this session: its ID, file and size',
	takesArguments: false,
	duringTurn: true,
	async run({agent, store}) {
		store.notice('info', `session ${agent.session.id}\n${agent.session.path}\n${agent.session.messages.length} messages in ${agent.workspace}`);
	},
};
