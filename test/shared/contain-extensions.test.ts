// A run without extensions pays nothing for their containment (issue 47):
// no process listener and no watchdog thread until the loader notes the
// first extension's code, and then both, before that code runs.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {containExtensions} from '../../source/shared/contain-extensions.js';
import {noteExtensionCode} from '../../source/core/extensions/extension-code.js';

const probes = Symbol.for('i.extension-watchdog');

test('nothing is listened to or started until an extension’s code is noted; then the listeners and the watchdog are there', () => {
	const before = {exceptions: process.listenerCount('uncaughtException'), rejections: process.listenerCount('unhandledRejection')};
	const reported: string[] = [];
	const stop = containExtensions(message => reported.push(message));
	assert.equal(process.listenerCount('uncaughtException'), before.exceptions);
	assert.equal(process.listenerCount('unhandledRejection'), before.rejections);
	assert.equal((globalThis as Record<symbol, unknown>)[probes], undefined, 'no watchdog');
	noteExtensionCode('/nowhere/ext.mjs', {name: 'ext', folder: false});
	assert.equal(process.listenerCount('uncaughtException'), before.exceptions + 1);
	assert.equal(process.listenerCount('unhandledRejection'), before.rejections + 1);
	assert.equal(typeof (globalThis as Record<symbol, {hold?: unknown}>)[probes]?.hold, 'function', 'the watchdog’s probes');
	stop();
	assert.deepEqual(reported, []);
});
