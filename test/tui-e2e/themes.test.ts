// Themes in a real chat screen (pseudo-terminal): a broken theme is an error
// naming the file and the key and the colours stay; /theme chooses one from
// the list, draws in it at once (the editor's components through Ink, the
// answer's Markdown) and saves it in the global settings; the next start
// draws in it; NO_COLOR draws no colour at all with the theme set.
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {startMockProvider, type MockProvider} from '../fixtures/mock-provider.js';
import {makeSandbox} from '../helpers/cli.js';
import {startChat} from './chat.js';

let mock: MockProvider;
before(async () => {
	mock = await startMockProvider();
});
after(async () => mock.close());

/** The theme's accent (the user's `›`) and heading, as 24-bit SGR: with COLORTERM=truecolor (FORCE_COLOR=3 where CI is set) Ink draws hex colours so too. */
const ACCENT = '\u001B[38;2;255;135;0m';
const HEADING = '38;2;215;95;0m';
// Any foreground or background colour: 30–37, 38;…, 39–47, 48;…, 90–97, 100–107, alone or among other SGR parameters.
const COLOUR = /\u001B\[(?:[\d;]*;)?(?:3\d|4\d|9[0-7]|10[0-7])[;m]/;

const flat = (rows: string[]) => rows.join(' ').replaceAll(/\s+/g, ' ');

test('/theme: a broken theme is refused naming file and key; a chosen one draws at once, is saved, and draws at the next start; NO_COLOR wins', async () => {
	const box = makeSandbox();
	mkdirSync(join(box.configDir, 'themes'), {recursive: true});
	writeFileSync(join(box.configDir, 'themes', 'warm.json'), JSON.stringify({description: 'warm', colors: {accent: '#ff8700', heading: '#d75f00'}}));
	const broken = join(box.workspace, '.i', 'themes', 'broken.json');
	mkdirSync(join(box.workspace, '.i', 'themes'), {recursive: true});
	writeFileSync(broken, JSON.stringify({colors: {acent: 'cyan'}}));
	// An extension names a folder of its own (themePaths): its theme is listed after the project's and the config folder's.
	const extension = join(box.root, 'themer');
	mkdirSync(join(extension, 'themes'), {recursive: true});
	writeFileSync(join(extension, 'themes', 'dusk.json'), JSON.stringify({colors: {accent: 'magenta'}}));
	writeFileSync(join(extension, 'themer.mjs'), "export default api => api.registerResourcesDiscover(() => ({themePaths: ['themes']}));\n");
	const settings = join(box.configDir, 'settings.json');
	const env = {COLORTERM: 'truecolor', FORCE_COLOR: '3'};

	const first = await startChat(mock, {box, env, cols: 200, rows: 40, args: ['--extension', join(extension, 'themer.mjs')]});
	try {
		const {run} = first;
		run.type('/theme broken\r');
		await run.waitFor(screen => flat(screen.split('\n')).includes('the theme stays default'), 'the refused theme');
		assert.ok(flat(run.screen()).includes(`theme ${broken}: unknown key "colors.acent"`), run.screen().join('\n'));
		assert.ok(!existsSync(settings) || !readFileSync(settings, 'utf8').includes('"theme"'), 'nothing saved');

		run.type('/theme\r');
		await run.waitFor(screen => screen.includes('Theme (now default)') && screen.includes('warm'), 'the theme list');
		const list = flat(run.screen());
		assert.ok(list.includes(`broken the workspace · ${broken}`), 'the broken file is listed where it was found');
		assert.ok(list.includes(`dusk extension themer · ${join(extension, 'themes', 'dusk.json')}`), list);
		assert.ok(list.indexOf('broken the workspace') < list.indexOf('warm the config folder') && list.indexOf('warm the config folder') < list.indexOf('dusk extension'), 'in the order of the folders');
		run.type('warm');
		await run.waitFor(screen => screen.includes('filter › warm') && !screen.includes('broken the workspace'), 'the filtered list');
		run.type('\r');
		await run.waitFor(screen => flat(screen.split('\n')).includes(`theme warm, saved in ${settings}`), 'the switch');
		assert.equal(JSON.parse(readFileSync(settings, 'utf8')).theme, 'warm');

		const since = run.output().length;
		mock.enqueue({text: '# Heading\n\nthe body'});
		run.type('hello\r');
		await run.waitFor(screen => screen.includes('the body'), 'the answer');
		const drawn = run.output().slice(since);
		assert.ok(drawn.includes(ACCENT), 'the user message in the theme accent');
		assert.ok(drawn.includes(HEADING), 'the Markdown heading in the theme colour');
	} finally {
		await first.run.close();
	}

	const second = await startChat(mock, {box, env, cols: 200, rows: 40});
	try {
		mock.enqueue({text: 'again'});
		second.run.type('once more\r');
		await second.run.waitFor(screen => screen.includes('› once more') && screen.includes('again'), 'the answer');
		assert.ok(second.run.output().includes(ACCENT), 'the saved theme draws at the next start');
	} finally {
		await second.run.close();
	}

	const plain = await startChat(mock, {box, env: {...env, NO_COLOR: '1'}, cols: 200, rows: 40});
	try {
		mock.enqueue({text: '# Heading\n\nplain'});
		plain.run.type('no colour\r');
		await plain.run.waitFor(screen => screen.includes('› no colour') && screen.includes('plain'), 'the answer');
		assert.doesNotMatch(plain.run.output(), COLOUR);
	} finally {
		await plain.run.close();
	}
});
