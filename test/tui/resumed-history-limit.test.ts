// showSessionHistory at MAX_SHOWN_HISTORY_MESSAGES and one past it: a resumed
// session shows at most that many of its last messages, and says how many
// came before.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {MAX_SHOWN_HISTORY_MESSAGES, showSessionHistory} from '../../source/tui/resumed-history.js';
import type {HistoryItem} from '../../source/tui/chat-state.js';

function shown(count: number): {items: HistoryItem[]; notices: string[]} {
	const items: HistoryItem[] = [];
	const notices: string[] = [];
	const messages = Array.from({length: count}, (_, index) => ({role: 'user' as const, content: `m${index}`}));
	showSessionHistory({messages, entries: []}, {showHistory: more => items.push(...more), delivered: () => {}, notice: (_level, text) => notices.push(text)});
	return {items, notices};
}

test(`${MAX_SHOWN_HISTORY_MESSAGES} messages are all shown; one more leaves the first out and says so`, () => {
	const all = shown(MAX_SHOWN_HISTORY_MESSAGES);
	assert.equal(all.items.length, MAX_SHOWN_HISTORY_MESSAGES);
	assert.deepEqual(all.notices, []);
	const past = shown(MAX_SHOWN_HISTORY_MESSAGES + 1);
	assert.equal(past.items.length, MAX_SHOWN_HISTORY_MESSAGES);
	assert.deepEqual(past.items[0], {kind: 'user', text: 'm1'});
	assert.deepEqual(past.notices, ['1 earlier message of this session are not shown (they are still in its history)']);
});
