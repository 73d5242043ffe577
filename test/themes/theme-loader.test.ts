// Themes (docs/themes.md): the folders in their order, the first file of a
// name winning, built-in names kept, broken files named with the key at
// fault, colour values and the bounds at the limit and one past it.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import type {Settings} from '../../source/core/extensions/settings-file.js';
import {themeFolders} from '../../source/core/resources/theme-folders.js';
import {findThemes, MAX_THEMES_PER_FOLDER} from '../../source/tui/theme/find-themes.js';
import {loadTheme} from '../../source/tui/theme/load-theme.js';
import {DEFAULT_PALETTE, LIGHT_PALETTE} from '../../source/tui/theme/palette.js';
import {checkTheme, MAX_THEME_DESCRIPTION_CHARS, MAX_THEME_FILE_BYTES, readThemeFile} from '../../source/tui/theme/theme-file.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-themes-')));
let count = 0;

/** A new folder with these theme files (name → JSON value, or raw text). */
function folder(files: Record<string, unknown>): string {
	count += 1;
	const path = join(root, `folder-${count}`);
	mkdirSync(path, {recursive: true});
	for (const [name, content] of Object.entries(files)) writeFileSync(join(path, name), typeof content === 'string' ? content : JSON.stringify(content));
	return path;
}

const at = (path: string, origin: string) => ({path, origin});

test('the folders come in their order: the project, the config folder, the extensions, the packages; a folder named twice counts once', () => {
	const settings = (path: string, packages: string[]): Settings => ({path, extensionDirs: [], packages, skillDirs: [], promptDirs: []});
	const folders = themeFolders({workspace: '/w', configDir: '/c'}, {project: settings('/w/.i/settings.json', ['/w/pkg']), global: settings('/c/settings.json', ['/c/npm/node_modules/shared', '/w/pkg'])}, [
		{path: '/ext/themes', extension: 'todo'},
		{path: '/w/.i/themes', extension: 'again'},
	]);
	assert.deepEqual(folders, [
		{path: '/w/.i/themes', origin: 'the workspace'},
		{path: '/c/themes', origin: 'the config folder'},
		{path: '/ext/themes', origin: 'extension todo'},
		{path: '/w/pkg/themes', origin: 'package /w/pkg'},
		{path: '/c/npm/node_modules/shared/themes', origin: 'package /c/npm/node_modules/shared'},
	]);
});

test('the first file of a name wins; names only later folders have are found; built-in names and bad names are left out and said', async () => {
	const project = folder({'ocean.json': {colors: {accent: '#0000ff'}}, 'light.json': {colors: {}}, 'bad name.json': {colors: {}}, 'notes.txt': 'not a theme'});
	const global = folder({'ocean.json': {colors: {accent: '#00ff00'}}, 'forest.json': {colors: {accent: 'green'}}});
	const fromExtension = folder({'dusk.json': {colors: {accent: 'magenta'}}});
	const found = await findThemes([at(project, 'the workspace'), at(global, 'the config folder'), at(join(root, 'missing'), 'extension gone'), at(fromExtension, 'extension dusk')]);
	assert.deepEqual(
		found.themes.map(theme => [theme.name, theme.origin]),
		[
			['ocean', 'the workspace'],
			['forest', 'the config folder'],
			['dusk', 'extension dusk'],
			['default', 'built in'],
			['light', 'built in'],
		],
	);
	assert.deepEqual(found.problems, [
		`theme ${join(project, 'bad name.json')}: the name "bad name" is not 1–64 letters, digits, ".", "_" or "-"; the file is left out`,
		`theme ${join(project, 'light.json')}: "light" is a built-in theme's name; the file is left out (rename it)`,
	]);

	const folders = [at(project, 'the workspace'), at(global, 'the config folder'), at(fromExtension, 'extension dusk')];
	const ocean = await loadTheme('ocean', folders);
	assert.deepEqual(ocean, {ok: true, name: 'ocean', palette: {...DEFAULT_PALETTE, accent: '#0000ff'}});
	assert.deepEqual(await loadTheme('light', folders), {ok: true, name: 'light', palette: LIGHT_PALETTE});
	const missing = await loadTheme('nowhere', folders);
	assert.deepEqual(missing, {ok: false, message: 'no theme "nowhere" (the themes are ocean, forest, dusk, default, light)'});
});

test('a broken file of a name is an error naming it and the key, even where a later folder has a good one of that name', async () => {
	const first = folder({'ocean.json': {colors: {acent: 'cyan'}}});
	const second = folder({'ocean.json': {colors: {accent: 'cyan'}}});
	const loaded = await loadTheme('ocean', [at(first, 'the workspace'), at(second, 'the config folder')]);
	assert.equal(loaded.ok, false);
	assert.match(!loaded.ok ? loaded.message : '', new RegExp(`^theme ${join(first, 'ocean.json')}: unknown key "colors.acent" \\(the colours are accent, warning, `));
});

test('broken theme files: bad JSON, an unknown key, a value that is no colour, each naming the file and the key', async () => {
	const dir = folder({
		'json.json': '{"colors": {',
		'top.json': {colors: {}, colours: {}},
		'number.json': {colors: {error: 12}},
		'short.json': {colors: {warning: '#ff00'}},
		'missing.json': {description: 'no colours'},
	});
	const message = async (name: string) => {
		const read = await readThemeFile(join(dir, name));
		return read.ok ? 'read' : read.message;
	};
	assert.match(await message('json.json'), new RegExp(`^theme ${join(dir, 'json.json')}: not valid JSON \\(`));
	assert.equal(await message('top.json'), `theme ${join(dir, 'top.json')}: unknown key "colours" (a theme has "colors" and "description")`);
	assert.match(await message('number.json'), new RegExp(`^theme ${join(dir, 'number.json')}: key "colors.error": 12 is not a colour \\(a colour is a name`));
	assert.match(await message('short.json'), /: key "colors.warning": "#ff00" is not a colour/);
	assert.equal(await message('missing.json'), `theme ${join(dir, 'missing.json')}: missing key "colors"`);
	assert.match(await message('absent.json'), /the file is gone/);
});

test('colour values: the named colours, #rrggbb of exactly six digits, and default', () => {
	const colour = (value: unknown) => {
		const checked = checkTheme({colors: {accent: value}});
		return typeof checked === 'string' ? 'refused' : checked.palette.accent;
	};
	for (const good of ['cyan', 'blueBright', 'gray', 'grey', 'whiteBright', '#00AAff', '#000000', 'default']) assert.equal(colour(good), good);
	for (const bad of ['#abcdef0', '#abcde', 'abcdef', '#ggggggg', 'bluebright', 'Cyan', 'orange', '', 'rgb(1,2,3)', null, ['cyan'], {}]) assert.equal(colour(bad), 'refused', String(bad));
	// A key not given keeps the default theme's colour.
	const partial = checkTheme({colors: {success: '#00ff00'}});
	assert.deepEqual(typeof partial === 'string' ? partial : partial.palette, {...DEFAULT_PALETTE, success: '#00ff00'});
	assert.equal(checkTheme([]), 'a theme is an object {"colors": {"accent": "cyan", …}}');
	assert.equal(checkTheme({colors: ['cyan']}), 'key "colors": an object of colours, {"accent": "cyan", …}');
});

test(`a description of ${MAX_THEME_DESCRIPTION_CHARS} characters is kept, one more is refused; a file of ${MAX_THEME_FILE_BYTES} bytes is read, one more is refused`, async () => {
	const described = (length: number) => checkTheme({description: 'd'.repeat(length), colors: {}});
	assert.equal(typeof described(MAX_THEME_DESCRIPTION_CHARS), 'object');
	assert.equal(described(MAX_THEME_DESCRIPTION_CHARS + 1), `key "description": one line of at most ${MAX_THEME_DESCRIPTION_CHARS} characters`);
	assert.equal(checkTheme({description: 'two\nlines', colors: {}}), `key "description": one line of at most ${MAX_THEME_DESCRIPTION_CHARS} characters`);

	const text = JSON.stringify({colors: {accent: 'red'}});
	const padded = (bytes: number) => text + ' '.repeat(bytes - Buffer.byteLength(text));
	const dir = folder({'full.json': padded(MAX_THEME_FILE_BYTES), 'over.json': padded(MAX_THEME_FILE_BYTES + 1)});
	const full = await readThemeFile(join(dir, 'full.json'));
	assert.equal(full.ok && full.theme.palette.accent, 'red');
	const over = await readThemeFile(join(dir, 'over.json'));
	assert.match(over.ok ? '' : over.message, new RegExp(`^theme ${join(dir, 'over.json')}: .*too big for a theme file \\(at most 64 KiB\\)`));
});

test(`a folder's first ${MAX_THEMES_PER_FOLDER} theme files by name are used; one more is said and left out`, async () => {
	const files = (count: number) => Object.fromEntries(Array.from({length: count}, (_, index) => [`t${String(index).padStart(3, '0')}.json`, {colors: {}}]));
	const full = await findThemes([at(folder(files(MAX_THEMES_PER_FOLDER)), 'the workspace')]);
	assert.equal(full.themes.length, MAX_THEMES_PER_FOLDER + 2);
	assert.deepEqual(full.problems, []);
	const over = folder(files(MAX_THEMES_PER_FOLDER + 1));
	const past = await findThemes([at(over, 'the workspace')]);
	assert.equal(past.themes.length, MAX_THEMES_PER_FOLDER + 2);
	assert.equal(
		past.themes.some(theme => theme.name === `t${MAX_THEMES_PER_FOLDER}`),
		false,
	);
	assert.deepEqual(past.problems, [`${over} (the workspace) holds ${MAX_THEMES_PER_FOLDER + 1} theme files; only the first ${MAX_THEMES_PER_FOLDER} by name are used`]);
});
