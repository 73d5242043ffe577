import assert from 'node:assert/strict';
import {join} from 'node:path';
import {test} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import {openSession} from '../../source/core/session/session-store.js';
import {runNode, stepFor, tempWorkspace} from './helpers.js';

test('SIGKILL in the middle of an append loop leaves a consistent prefix of the steps, acknowledged ones included', async t => {
	const workspace = await tempWorkspace(t);
	const path = join(workspace, 's.json');
	let id: string | undefined;
	let steps = 0;
	for (let round = 0; round < 6; round++) {
		const writer = runNode(`
			const stepFor = ${stepFor.toString()};
			const session = await openSession(${JSON.stringify({path, workspace})});
			for (let n = session.messages.length / 2 + 1; ; n++) {
				await session.appendStep(stepFor(n));
				console.log(n);
			}
		`);
		await writer.line(line => Number(line) >= steps + 10);
		await sleep(Math.random() * 30);
		writer.child.kill('SIGKILL');
		await writer.exited;
		const acknowledged = Math.max(...writer.lines.map(Number));

		const session = await openSession({path, workspace});
		id ??= session.id;
		assert.equal(session.id, id);
		const count = session.messages.length / 2;
		assert.ok(Number.isInteger(count), `whole steps only (round ${round})`);
		assert.ok(count >= acknowledged, `every acknowledged step is kept (round ${round}: ${count} < ${acknowledged})`);
		assert.deepEqual(session.messages, Array.from({length: count}, (_, i) => stepFor(i + 1)).flat());
		steps = count;
		await session.close();
	}
});
