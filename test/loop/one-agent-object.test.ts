// Every head holds the one agent object by reference (docs/dev/architecture.md):
// a change made through it (a model switch, /clear's new session) reaches
// a head that was never told of it. The core API's session stands in for
// the heads here; test/architecture.test.ts checks statically that no head
// copies the object.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {join} from 'node:path';
import {scriptedAgent} from '../fixtures/scripted-agent.js';
import {ScriptedCaller} from '../fixtures/scripted-model.js';
import {AgentSession} from '../../source/core/api/agent-session.js';
import {openSession} from '../../source/core/session/session-store.js';

test("a model switched through the agent object: the head's next turn goes to the new model, with the same history", async () => {
	const other = new ScriptedCaller('other', [{text: 'from the other model'}]);
	const run = await scriptedAgent({replies: [{text: 'from the first model'}], otherModels: [other]});
	const head = new AgentSession(run.agent);
	try {
		assert.equal((await head.run('one')).text, 'from the first model');
		const switched = await run.agent.switchModel({provider: undefined, model: 'other', origin: 'test'});
		assert.equal(switched.ok, true);
		assert.deepEqual(run.agent.selected, {provider: 'scripted', model: 'other'});

		assert.equal((await head.run('two')).text, 'from the other model');
		assert.equal(run.model.requests.length, 1, 'the first model got nothing after the switch');
		assert.deepEqual(
			other.requests[0]!.messages.slice(1).map(message => message.content),
			['one', 'from the first model', 'two'],
		);
		// The usage the head hears names the model that answered.
		assert.equal(run.agent.caller.model, 'other');
	} finally {
		await head.close();
		await run.close();
	}
});

test('a session switched through the agent object (/clear, /resume): the head reads the new one and its next turn is saved there', async () => {
	const run = await scriptedAgent({replies: [{text: 'first'}, {text: 'second'}]});
	const head = new AgentSession(run.agent);
	try {
		await head.run('in the first session');
		const firstPath = head.path;
		const next = await openSession({path: join(run.agent.sessionFolder, 'next.json'), workspace: run.workspace});
		await run.agent.switchSession(next, 'new');
		assert.equal(head.path, next.path);
		assert.equal(head.id, next.id);
		assert.equal(head.messages.length, 0);

		await head.run('in the next session');
		assert.deepEqual(
			head.messages.map(message => message.content),
			['You are a scripted test agent.', 'in the next session', 'second'],
		);
		assert.notEqual(firstPath, head.path);
	} finally {
		await head.close();
		await run.close();
	}
});
