import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {renderPlain} from '../../brand/render-plain.js';
import {glyphRows, readAnsi, readPlain, shapeOf} from './read-renders.js';

const fixture = fileURLToPath(new URL('fixtures/render-logo.js', import.meta.url));

async function frame(env: Record<string, string>): Promise<string> {
	const {stdout} = await promisify(execFile)(process.execPath, [fixture], {env: {PATH: process.env.PATH, ...env}});
	return JSON.parse(stdout) as string;
}

/** A frame as the renderers end their lines; blanks Ink may drop at line ends are put back to the glyph's width. */
function padded(frame: string): string {
	const width = renderPlain().indexOf('\n');
	return frame
		.split('\n')
		.map(line => line + ' '.repeat(Math.max(0, width - line.replace(/\u001B\[[0-9;]*m/g, '').length)) + '\n')
		.join('');
}

test('<Logo/> draws the glyph in its colours when the terminal has colour', async () => {
	const colour = await frame({FORCE_COLOR: '3'});
	assert.match(colour, /\u001B\[38;2;/);
	assert.deepEqual(readAnsi(padded(colour)), glyphRows);
});

test('<Logo/> draws the plain glyph under NO_COLOR, even where chalk would colour', async () => {
	const plain = await frame({FORCE_COLOR: '3', NO_COLOR: '1'});
	assert.doesNotMatch(plain, /\u001B/);
	assert.equal(padded(plain), renderPlain());
	assert.deepEqual(readPlain(padded(plain)), shapeOf(glyphRows));
});
