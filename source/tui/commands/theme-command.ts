import {resolveDirs} from '../../core/config/dirs.js';
import {errorMessage} from '../../core/errors.js';
import {activeTheme, setActiveTheme} from '../theme/active-palette.js';
import {findThemes} from '../theme/find-themes.js';
import {loadEntry} from '../theme/load-theme.js';
import {BUILTIN_THEMES} from '../theme/palette.js';
import {saveTheme} from '../theme/save-theme.js';
import type {ScreenCommand} from './command-context.js';

const usage = '/theme or /theme NAME';

/**
 * `/theme`: the themes the run can find (docs/themes.md), chosen from a list
 * or named; the choice is drawn from the next frame on and saved as the
 * global settings' `theme`. A broken theme file is an error naming the file
 * and the key, and the theme in use stays.
 */
export const themeCommand: ScreenCommand = {
	name: '/theme',
	usage,
	description: 'choose the colours of the chat screen (saved in the global settings)',
	takesArguments: true,
	duringTurn: true,
	async run({agent, store, chooser}, args) {
		if (/\s/.test(args)) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		const {themes, problems} = await findThemes(agent.themeFolders);
		for (const problem of problems) store.notice('warning', problem);
		const now = activeTheme().name;
		const name =
			args === ''
				? await chooser.ask({
						title: `Theme (now ${now})`,
						options: themes.map(theme => ({value: theme.name, label: theme.name, description: theme.path === undefined ? BUILTIN_THEMES.get(theme.name)!.description : `${theme.origin} · ${theme.path}`})),
						current: now,
						enter: 'use it and save it',
					})
				: args;
		if (name === null) return;
		const entry = themes.find(theme => theme.name === name);
		if (entry === undefined) {
			store.notice('warning', `no theme "${name}" (the themes are ${themes.map(theme => theme.name).join(', ')}); the theme stays ${now}`);
			return;
		}

		const loaded = await loadEntry(entry);
		if (!loaded.ok) {
			store.notice('error', `${loaded.message}; the theme stays ${now}`);
			return;
		}

		setActiveTheme(loaded.name, loaded.palette);
		try {
			const file = await saveTheme(resolveDirs().config_dir, loaded.name);
			store.notice('info', `theme ${loaded.name}, saved in ${file}`);
		} catch (error) {
			store.notice('error', `theme ${loaded.name} for this run; not saved: ${errorMessage(error)}`);
		}
	},
};
