import {halfBlockRows} from './half-blocks.js';

/** The mark in half-block characters without colour: for NO_COLOR, pipes and `--plain`. */
export function renderPlain(): string {
	return halfBlockRows()
		.map(runs => `${runs.map(run => run.text).join('')}\n`)
		.join('');
}
