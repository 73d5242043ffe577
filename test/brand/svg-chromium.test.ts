import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {promisify} from 'node:util';
import {colours, glyph} from '../../brand/glyph.js';
import {svgCellPx, svgHeightPx, svgWidthPx} from '../../brand/render-svg.js';
import {runCli} from '../helpers/cli.js';
import {decodePng, pngSignature} from './png.js';

const chromium = '/usr/bin/chromium';
const skip = existsSync(chromium) ? false : `${chromium} is absent: install Debian chromium (.ci/run does) to render the SVG`;

function rgb(hex: string): number[] {
	return [1, 3, 5].map(at => Number.parseInt(hex.slice(at, at + 2), 16));
}

// Below about 150 px of window height headless Chromium paints only part of
// the page; the logo's documented size (32 px cells) is comfortably above that.
test('the SVG from --svg renders in headless Chromium at its size, each cell in its colour', {skip, timeout: 120_000}, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'i-logo-chromium-'));
	try {
		const svg = await runCli(['--runtime', 'logo', '--svg'], {env: {PATH: process.env.PATH}});
		assert.equal(svg.code, 0, svg.stderr);
		const file = join(dir, 'logo.svg');
		const shot = join(dir, 'logo.png');
		const profile = join(dir, 'profile');
		mkdirSync(profile);
		writeFileSync(file, svg.stdout);
		const args = [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--hide-scrollbars',
			'--force-device-scale-factor=1',
			`--user-data-dir=${profile}`,
			`--screenshot=${shot}`,
			`--window-size=${svgWidthPx},${svgHeightPx}`,
			pathToFileURL(file).href,
		];
		// HOME in the temp folder too, so nothing is left in the real one.
		await promisify(execFile)(chromium, args, {env: {PATH: process.env.PATH, HOME: dir}, timeout: 90_000});

		assert.ok(existsSync(shot), 'Chromium wrote no screenshot');
		const data = readFileSync(shot);
		assert.ok(data.length > 0, 'the screenshot is empty');
		assert.ok(data.subarray(0, 8).equals(pngSignature), 'the screenshot is not a PNG');
		const png = decodePng(data);
		assert.deepEqual([png.width, png.height], [svgWidthPx, svgHeightPx]);

		// A blank page, a parse-error page or a misplaced shape all fail here: every cell's centre must be its own colour.
		const white = [255, 255, 255];
		const wrong: string[] = [];
		glyph.forEach((row, y) => {
			row.forEach((pixel, x) => {
				const expected = pixel === null ? white : rgb(colours[pixel]);
				const actual = png.pixel(x * svgCellPx + svgCellPx / 2, y * svgCellPx + svgCellPx / 2).slice(0, 3);
				if (actual.some((value, channel) => Math.abs(value - expected[channel]!) > 6)) wrong.push(`cell ${x},${y}: ${actual.join(',')} not ${expected.join(',')}`);
			});
		});
		assert.deepEqual(wrong, []);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
});
