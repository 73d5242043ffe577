// The active theme's colours as the Markdown renderer draws them, NO_COLOR
// dropping them, and the saved setting read and written.
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {test} from 'node:test';
import {paint} from '../../source/tui/markdown/style.js';
import {activeTheme, colour, setActiveTheme} from '../../source/tui/theme/active-palette.js';
import {sgrForeground} from '../../source/tui/theme/colour-value.js';
import {DEFAULT_PALETTE} from '../../source/tui/theme/palette.js';
import {saveTheme} from '../../source/tui/theme/save-theme.js';
import {applySavedTheme} from '../../source/tui/theme/theme-setting.js';

test('colour values as SGR: names as the 16 colours, hex as 24-bit colour, default as none', () => {
	assert.equal(sgrForeground('cyan'), '36');
	assert.equal(sgrForeground('blueBright'), '94');
	assert.equal(sgrForeground('#ff8700'), '38;2;255;135;0');
	assert.equal(sgrForeground('default'), undefined);
});

test('Markdown paints in the active theme, and without colour (NO_COLOR) in none', () => {
	try {
		assert.equal(paint('x', {color: 'heading', bold: true}, true), '\u001B[1;94mx\u001B[0m');
		setActiveTheme('warm', {...DEFAULT_PALETTE, heading: '#ff8700', accent: 'default'});
		assert.equal(paint('x', {color: 'heading', bold: true}, true), '\u001B[1;38;2;255;135;0mx\u001B[0m');
		assert.equal(paint('x', {color: 'heading', bold: true}, false), '\u001B[1mx\u001B[0m');
		assert.equal(paint('x', {color: 'heading'}, false), 'x');
		assert.equal(colour('heading'), '#ff8700');
		assert.equal(colour('accent'), undefined);
	} finally {
		setActiveTheme('default', DEFAULT_PALETTE);
	}
});

test('the saved theme: applied at start; a missing or broken one is said naming the file, and the default stays', async () => {
	const configDir = realpathSync(mkdtempSync(join(tmpdir(), 'i-theme-setting-')));
	const themes = join(configDir, 'themes');
	mkdirSync(themes);
	writeFileSync(join(themes, 'warm.json'), JSON.stringify({colors: {accent: '#ff8700'}}));
	writeFileSync(join(themes, 'broken.json'), JSON.stringify({colors: {accent: 'orange'}}));
	const settings = join(configDir, 'settings.json');
	const folders = [{path: themes, origin: 'the config folder'}];
	try {
		assert.equal(await applySavedTheme(configDir, folders), undefined, 'no settings: nothing to do');
		assert.equal(activeTheme().name, 'default');

		writeFileSync(settings, '{\n  "packages": ["kept"]\n}\n');
		assert.equal(await saveTheme(configDir, 'warm'), settings);
		assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8')), {packages: ['kept'], theme: 'warm'});
		assert.equal(await applySavedTheme(configDir, folders), undefined);
		assert.deepEqual(activeTheme(), {name: 'warm', palette: {...DEFAULT_PALETTE, accent: '#ff8700'}});

		setActiveTheme('default', DEFAULT_PALETTE);
		await saveTheme(configDir, 'broken');
		const broken = await applySavedTheme(configDir, folders);
		assert.match(broken ?? '', new RegExp(`^settings ${settings} names the theme "broken": theme ${join(themes, 'broken.json')}: key "colors.accent": "orange" is not a colour .*; the default theme is used$`));
		assert.equal(activeTheme().name, 'default');

		await saveTheme(configDir, 'gone');
		assert.match((await applySavedTheme(configDir, folders)) ?? '', /names the theme "gone": no theme "gone" \(the themes are broken, warm, default, light\); the default theme is used$/);
		writeFileSync(settings, '{"theme": 7}');
		assert.equal(await applySavedTheme(configDir, folders), `settings ${settings}: key "theme": a theme's name, such as "light"; the default theme is used`);
		assert.equal(activeTheme().name, 'default');
	} finally {
		setActiveTheme('default', DEFAULT_PALETTE);
	}
});
