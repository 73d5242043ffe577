// Naming the extension behind a fault from its stack (issue 47): the
// innermost frame in a listed file or package folder, as a path or a file
// URL (a reload's query too), and what started the failing code.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ownerOfStack, stackOrigin, type ExtensionPlace} from '../../source/core/extensions/extension-code.js';

const code = new Map<string, ExtensionPlace>([
	['/x/ext/todo.mjs', {name: 'todo', folder: false}],
	['/x/pkg', {name: 'pkg', folder: true}],
]);

test('the innermost extension frame names its extension: a file, a file of a package folder, by URL or path', () => {
	const timer = 'Error: boom\n    at Timeout.goOff [as _onTimeout] (file:///x/ext/todo.mjs:6:11)\n    at listOnTimeout (node:internal/timers:581:17)\n    at process.processTimers (node:internal/timers:519:7)';
	assert.deepEqual(ownerOfStack(timer, code), {name: 'todo', path: '/x/ext/todo.mjs', frame: 'Timeout.goOff [as _onTimeout] (file:///x/ext/todo.mjs:6:11)'});
	const nested = 'Error: x\n    at helper (/x/pkg/dist/helper.js:3:1)\n    at run (file:///x/ext/todo.mjs?generation=2:9:2)';
	assert.equal(ownerOfStack(nested, code)?.name, 'pkg', 'the innermost frame wins');
	assert.equal(ownerOfStack('Error: x\n    at run (file:///x/ext/todo.mjs?generation=2:9:2)', code)?.name, 'todo', 'a reload imports under a query');
});

test('a frame that only looks like an extension path names none', () => {
	assert.equal(ownerOfStack('Error: x\n    at f (/x/pkg2/index.js:1:1)\n    at g (/x/ext/todo.mjs.bak:1:1)', code), null);
	assert.equal(ownerOfStack('Error: x\n    at f (/x/ext/other.mjs:1:1)', code), null);
	assert.equal(ownerOfStack('', code), null);
});

test('what started the failing code: a listener before the timer that called it, a timer, an immediate, a promise', () => {
	assert.equal(stackOrigin('Error\n    at f (/a.js:1:1)\n    at listOnTimeout (node:internal/timers:581:17)\n    at process.processTimers (node:internal/timers:519:7)'), 'a timer callback');
	assert.equal(
		stackOrigin('Error\n    at EventEmitter.f (/a.js:1:1)\n    at EventEmitter.emit (node:events:517:28)\n    at Timeout._onTimeout (/a.js:2:2)\n    at listOnTimeout (node:internal/timers:581:17)'),
		'an event listener',
	);
	assert.equal(stackOrigin('Error\n    at f (/a.js:1:1)\n    at process.processImmediate (node:internal/timers:483:21)'), 'a setImmediate callback');
	assert.equal(stackOrigin('Error\n    at f (/a.js:1:1)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)'), 'a promise callback');
	assert.equal(stackOrigin('Error: no frames'), '');
});
