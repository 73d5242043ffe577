import {test} from 'node:test';
import assert from 'node:assert/strict';
import {colours, glyph, glyphHeight, glyphWidth} from '../../brand/glyph.js';
import {renderAnsi} from '../../brand/render-ansi.js';
import {renderAscii} from '../../brand/render-ascii.js';
import {renderPlain} from '../../brand/render-plain.js';
import {renderSvg, svgCellPx, svgHeightPx, svgWidthPx} from '../../brand/render-svg.js';
import {glyphRows, readAnsi, readAscii, readPlain, readSvg, shapeOf} from './read-renders.js';

test('the glyph is a clean rectangle of 5–9 cells each way using both tones', () => {
	assert.ok(glyphWidth >= 5 && glyphWidth <= 9 && glyphHeight >= 5 && glyphHeight <= 9, `${glyphWidth}×${glyphHeight}`);
	assert.equal(glyph.length, glyphHeight);
	for (const row of glyph) assert.equal(row.length, glyphWidth);
	const tones = new Set(glyph.flat());
	assert.deepEqual([...tones].sort(), ['accent', 'primary', null].sort());
	for (const hex of Object.values(colours)) assert.match(hex, /^#[0-9A-F]{6}$/i);
});

test('plain draws the glyph in half blocks, with no escape sequences', () => {
	const plain = renderPlain();
	assert.doesNotMatch(plain, /\u001B/);
	assert.deepEqual(readPlain(plain), shapeOf(glyphRows));
	assert.equal(plain.split('\n').length - 1, Math.ceil(glyphHeight / 2));
});

test('ASCII draws the glyph, both tones told apart, every byte below 0x80', () => {
	const ascii = renderAscii();
	const bytes = Buffer.from(ascii, 'utf8');
	assert.ok(
		bytes.every(byte => byte < 0x80),
		'non-ASCII byte in the ASCII render',
	);
	assert.deepEqual(readAscii(ascii), glyphRows);
});

for (const depth of ['truecolor', '256'] as const) {
	test(`ANSI (${depth}) colours each pixel with its tone and draws the plain shape`, () => {
		const ansi = renderAnsi(depth);
		assert.match(ansi, depth === 'truecolor' ? /\u001B\[38;2;\d+;\d+;\d+m/ : /\u001B\[38;5;\d+m/);
		assert.deepEqual(readAnsi(ansi), glyphRows);
		assert.equal(ansi.replace(/\u001B\[[0-9;]*m/g, ''), renderPlain());
	});
}

test('the SVG is well-formed XML whose rects cover exactly the glyph, in its colours', () => {
	const svg = readSvg(renderSvg());
	assert.deepEqual(svg.rows, glyphRows);
	assert.equal(svg.area, glyph.flat().filter(pixel => pixel !== null).length, 'rects overlap');
	assert.equal(svg.title, 'i');
	assert.equal(svg.root.xmlns, 'http://www.w3.org/2000/svg');
	assert.equal(svg.root.viewBox, `0 0 ${glyphWidth} ${glyphHeight}`);
	assert.equal(svg.root.width, `${svgWidthPx}px`);
	assert.equal(svg.root.height, `${svgHeightPx}px`);
	assert.equal(svgWidthPx, glyphWidth * svgCellPx);
	assert.equal(svgHeightPx, glyphHeight * svgCellPx);
});
