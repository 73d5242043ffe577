import {firstLine, queuedCount} from '../message-queue.js';
import type {ScreenCommand} from './command-context.js';

export const queueCommand: ScreenCommand = {
	name: '/queue',
	usage: '/queue [clear]',
	description: 'the messages waiting for the running turn; /queue clear drops them',
	takesArguments: true,
	duringTurn: true,
	async run({store, queue}, args) {
		const words = args.trim();
		if (words === 'clear') {
			const dropped = queue.takeAll().length;
			store.notice('info', dropped === 0 ? 'nothing is queued' : `dropped ${queuedCount(dropped)}`);
			return;
		}

		if (words !== '') {
			store.notice('warning', 'usage: /queue lists the queued messages; /queue clear drops them');
			return;
		}

		const waiting = queue.getSnapshot();
		if (waiting.length === 0) {
			store.notice('info', 'nothing is queued: Enter while a turn runs queues a message');
			return;
		}

		const lines = waiting.map((message, index) => `${index + 1}. ${firstLine(message.typed)}`);
		store.notice('info', [`${queuedCount(waiting.length)}, sent in this order after the tool batch running now, or as the next turn:`, ...lines].join('\n'));
	},
};
