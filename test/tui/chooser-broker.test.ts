// The chooser behind /provider and /model (chooser-broker.ts): labels shown
// on one line without control characters, the answer only one of the
// options (anything else is no choice), cancel closes it, and one chooser at a time.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ChooserBroker} from '../../source/tui/brokers/chooser-broker.js';

const request = {
	title: 'Provider',
	options: [
		{value: 'alpha', label: 'alpha\nsecond\u001B[31m', description: 'two\tparts'},
		{value: 'beta', label: 'beta'},
	],
};

test('the chooser shows labels on one line without control characters, answers a listed value, and closes', async () => {
	const broker = new ChooserBroker();
	const asked = broker.ask(request);
	await Promise.resolve();
	const shown = broker.getSnapshot()!;
	assert.equal(shown.request.options[0]!.label, 'alpha second\uFFFD[31m');
	assert.equal(shown.request.options[0]!.description, 'two parts');
	shown.answer('beta');
	assert.equal(await asked, 'beta');
	assert.equal(broker.getSnapshot(), null);
});

test('an answer that is not one of the options is no choice (null); cancel closes an open chooser with null; the next one shows after', async () => {
	const broker = new ChooserBroker();
	const first = broker.ask(request);
	const second = broker.ask(request);
	await Promise.resolve();
	broker.getSnapshot()!.answer('not-listed');
	assert.equal(await first, null);
	for (let wait = 0; broker.getSnapshot() === null && wait < 50; wait++) await new Promise(resolve => setImmediate(resolve));
	assert.ok(broker.getSnapshot(), 'the second chooser shows once the first closed');
	broker.cancel();
	assert.equal(await second, null);
	assert.equal(broker.getSnapshot(), null);
});
