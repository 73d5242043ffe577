import {test} from 'node:test';
import assert from 'node:assert/strict';
import {cannotOpen, relativeTime, sessionPickerRequest} from '../../source/tui/commands/session-picker.js';
import {filterOptions} from '../../components/use-choice.js';
import type {SessionSummary} from '../../source/core/session/list-sessions.js';

const now = new Date('2025-06-01T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

test('relativeTime: just now, minutes, hours, days, then the date', () => {
	assert.equal(relativeTime(ago(59), now), 'just now');
	assert.equal(relativeTime(ago(60), now), '1 min ago');
	assert.equal(relativeTime(ago(3599), now), '59 min ago');
	assert.equal(relativeTime(ago(3600), now), '1 h ago');
	assert.equal(relativeTime(ago(86_399), now), '23 h ago');
	assert.equal(relativeTime(ago(86_400), now), '1 day ago');
	assert.equal(relativeTime(ago(30 * 86_400), now), '30 days ago');
	assert.equal(relativeTime(ago(31 * 86_400), now), '2025-05-01');
	// A clock that went back: never "in the future".
	assert.equal(relativeTime(ago(-500), now), 'just now');
});

const summaries: SessionSummary[] = [
	{name: 'fix-login', path: '/s/fix-login.json', updated: ago(300), lockedBy: null, status: 'ok', id: 'a', title: 'Fix the login bug in src/auth.ts', messages: 12, stale: false},
	{name: 'held', path: '/s/held.json', updated: ago(4000), lockedBy: {kind: 'held', pid: 4242, hostname: 'here'}, status: 'ok', id: 'b', title: 'elsewhere', messages: 1, stale: true},
	{name: 'copied', path: '/s/copied.json', updated: ago(90_000), lockedBy: null, status: 'ok', id: 'c', title: null, messages: null, stale: false},
	{name: 'broken', path: '/s/broken.json', updated: ago(200_000), lockedBy: null, status: 'damaged', problem: 'its first line is not JSON'},
	{name: 'here', path: '/s/here.json', updated: ago(10), lockedBy: {kind: 'held', pid: 1, hostname: 'here'}, status: 'ok', id: 'd', title: 'this one', messages: 2, stale: false},
];

test('the picker: name, when, messages, first words; damaged and locked ones said so; the filter searches them all', () => {
	const request = sessionPickerRequest(summaries, now, '/s/here.json');
	assert.equal(request.title, 'Resume a session (5)');
	assert.deepEqual(
		request.options.map(option => [option.label, option.description, option.marked]),
		[
			['fix-login', '5 min ago · 12 messages · Fix the login bug in src/auth.ts', false],
			['held', '1 h ago · 1+ message · elsewhere · (in use by process 4242)', true],
			['copied', '1 day ago · messages unknown', false],
			['broken', '2 days ago · damaged: its first line is not JSON', false],
			['here', 'just now · 2 messages · this one · (open here)', true],
		],
	);
	assert.deepEqual(
		filterOptions(request.options, 'auth').map(option => option.value),
		['fix-login'],
	);
	assert.deepEqual(
		filterOptions(request.options, 'damaged').map(option => option.value),
		['broken'],
	);
	const long = sessionPickerRequest([{...(summaries[0] as Extract<SessionSummary, {status: 'ok'}>), title: 'x'.repeat(200)}], now, null);
	assert.ok(long.options[0]!.description!.endsWith(`${'x'.repeat(59)}…`));
});

test('cannotOpen: the session open here, a damaged one, one another i holds; the rest open', () => {
	assert.equal(cannotOpen(summaries[0]!, '/s/here.json'), null);
	assert.match(cannotOpen(summaries[1]!, null)!, /held is open in process 4242; it is not opened twice/);
	assert.equal(cannotOpen(summaries[2]!, null), null);
	assert.match(cannotOpen(summaries[3]!, null)!, /broken cannot be opened: its first line is not JSON/);
	assert.match(cannotOpen(summaries[4]!, '/s/here.json')!, /is the session open here/);
});
