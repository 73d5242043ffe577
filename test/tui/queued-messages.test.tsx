// The queued messages on the chat screen (issue 45, point 4): a dimmed line
// each above the editor, numbered when several; ↑ on an empty editor takes
// the newest back to edit, Esc on an empty editor drops it and says so, and
// Esc stops the turn only once nothing is queued.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {setTimeout as delay} from 'node:timers/promises';
import {render} from 'ink-testing-library';
import {App} from '../../components/App.js';
import {QUEUED_LINES_SHOWN, QueuedMessages} from '../../components/QueuedMessages.js';
import {ApprovalBroker} from '../../source/tui/brokers/approval-broker.js';
import {ChatStore} from '../../source/tui/chat-store.js';
import {MessageQueue, firstLine} from '../../source/tui/message-queue.js';

const ESC = '\u001B';
const UP = '\u001B[A';

async function chat(queued: string[]) {
	const store = new ChatStore({model: 'm', workspace: '', session: null, usage: null, window: null}, {logo: false, frameMs: 0});
	store.started({workspace: '/w'});
	store.setBusy(true);
	const queue = new MessageQueue();
	for (const text of queued) queue.add({typed: text, text});
	const submitted: string[] = [];
	let interrupts = 0;
	const view = render(
		<App
			store={store}
			broker={new ApprovalBroker()}
			queue={queue}
			onSubmit={text => void submitted.push(text)}
			onInterrupt={() => {
				interrupts++;
			}}
			onExit={() => {}}
		/>,
	);
	for (let waited = 0; view.stdin.listenerCount('readable') === 0; waited += 5) {
		if (waited > 5000) throw new Error('the editor never listened to stdin');
		await delay(5);
	}

	const type = async (...inputs: string[]) => {
		for (const input of inputs) {
			view.stdin.write(input);
			await delay(20);
		}
	};

	const frame = async (check: (frame: string) => boolean, what: string): Promise<string> => {
		for (let waited = 0; !check(view.lastFrame() ?? '') && waited < 5000; waited += 10) await delay(10);
		const last = view.lastFrame() ?? '';
		assert.ok(check(last), `${what}; the frame:\n${last}`);
		return last;
	};

	const notices = () => store.getSnapshot().finished.flatMap(item => (item.kind === 'notice' ? [item.text] : []));
	return {store, queue, view, type, frame, submitted, notices, interrupts: () => interrupts};
}

const rows = (frame: string) => frame.split('\n').map(row => row.trimEnd());

test('one queued message is one dimmed line above the editor; several are numbered, the newest last', () => {
	const one = render(<QueuedMessages items={[{typed: 'check the tests\nand the docs', text: 'x'}]} />);
	assert.equal(one.lastFrame(), 'queued: check the tests …');
	const several = render(<QueuedMessages items={['a', 'b', 'c'].map(text => ({typed: text, text}))} />);
	assert.deepEqual(rows(several.lastFrame()!), ['queued 1/3: a', 'queued 2/3: b', 'queued 3/3: c']);
	assert.equal(render(<QueuedMessages items={[]} />).lastFrame(), '');
});

test(`past ${QUEUED_LINES_SHOWN} queued messages the oldest fold into one line that points at /queue`, () => {
	const items = Array.from({length: 8}, (_, index) => ({typed: `m${index + 1}`, text: `m${index + 1}`}));
	const shown = rows(render(<QueuedMessages items={items} />).lastFrame()!);
	assert.equal(shown.length, QUEUED_LINES_SHOWN);
	assert.deepEqual(shown, ['queued 1–4/8: /queue lists them', 'queued 5/8: m5', 'queued 6/8: m6', 'queued 7/8: m7', 'queued 8/8: m8']);
});

test('the queue is drawn between the spinner and the editor, and follows it as it changes', async () => {
	const {view, queue, frame} = await chat(['look at the logs']);
	try {
		const shown = rows(await frame(text => text.includes('queued: look at the logs'), 'the queued line'));
		const line = shown.findIndex(row => row.includes('queued: look at the logs'));
		assert.ok(shown[line - 1]!.includes('working — Esc to stop'), shown.join('\n'));
		assert.ok(shown[line + 1]!.startsWith('›'), shown.join('\n'));
		queue.add({typed: 'and the config', text: 'and the config'});
		await frame(text => text.includes('queued 2/2: and the config'), 'the second line');
		queue.takeAll();
		await frame(text => !text.includes('queued'), 'no queued line once it was sent');
	} finally {
		view.unmount();
	}
});

test('↑ on an empty editor takes the newest queued message back to edit; it leaves the queue', async () => {
	const {view, queue, type, frame} = await chat(['first', 'second\nline two']);
	try {
		await type(UP);
		const shown = await frame(text => text.includes('› second'), 'the message in the editor');
		assert.ok(rows(shown).includes('  line two'), shown);
		assert.deepEqual(
			queue.getSnapshot().map(message => message.typed),
			['first'],
		);
		assert.ok(shown.includes('queued: first'), shown);
		// With text in the editor, ↑ moves in it as always: nothing more leaves the queue.
		await type(UP, UP);
		assert.equal(queue.size, 1);
	} finally {
		view.unmount();
	}
});

test('Esc on an empty editor drops the newest queued message and says so; with nothing queued, Esc stops the turn', async () => {
	const {view, queue, type, frame, notices, interrupts} = await chat(['keep me', 'drop me']);
	try {
		await type(ESC);
		await frame(text => !text.includes('queued 2/2'), 'the dropped line goes');
		assert.deepEqual(
			queue.getSnapshot().map(message => message.typed),
			['keep me'],
		);
		assert.equal(interrupts(), 0, 'the turn goes on');
		assert.equal(notices().at(-1), 'dropped from the queue: drop me (1 queued message left)');
		await type(ESC);
		assert.equal(queue.size, 0);
		assert.equal(notices().at(-1), 'dropped from the queue: keep me (nothing queued now: Esc stops the turn)');
		assert.equal(interrupts(), 0);
		await type(ESC);
		assert.equal(interrupts(), 1);
	} finally {
		view.unmount();
	}
});

test('Esc with text in the editor stops the turn and keeps the queue; Ctrl-C does too', async () => {
	const {view, queue, type, interrupts} = await chat(['waiting']);
	try {
		await type('half typed', ESC);
		assert.equal(interrupts(), 1);
		await type('\u0003');
		assert.equal(interrupts(), 2);
		assert.equal(queue.size, 1);
	} finally {
		view.unmount();
	}
});

test('Enter on an empty editor asks for the queue to be sent; with nothing queued it sends nothing', async () => {
	const {view, type, frame, submitted, queue} = await chat(['held']);
	try {
		await type('\r');
		assert.deepEqual(submitted, ['']);
		queue.takeAll();
		await frame(text => !text.includes('queued'), 'the queue line goes');
		await type('\r');
		assert.deepEqual(submitted, ['']);
		assert.equal(firstLine('  one\ntwo  '), 'one …');
	} finally {
		view.unmount();
	}
});
