import {join} from 'node:path';
import {readSettingsJson} from '../../core/extensions/settings-file.js';
import {enableFocusReporting} from './focus-reporting.js';
import type {Notifier} from './notifier.js';
import {notifyStyle} from './notify-style.js';

/**
 * Sets the notifier's style from `I_NO_NOTIFY`, the global
 * `<config_dir>/settings.json` key `notifications` (the person's terminal,
 * so a project's settings do not choose it) and the terminal, and asks for
 * focus reports when it notifies at all. Returns the undo of the focus
 * reporting. The start already refused a broken settings file; one that
 * broke since is read as absent.
 */
export async function startNotifications(notifier: Notifier, where: {env: NodeJS.ProcessEnv; configDir: string; isTTY: boolean}): Promise<() => void> {
	let configured;
	try {
		configured = (await readSettingsJson(join(where.configDir, 'settings.json')))?.known.notifications;
	} catch {
		configured = undefined;
	}

	notifier.setStyle(notifyStyle(where.env, configured));
	if (notifier.style === 'off' || !where.isTTY) return () => {};
	return enableFocusReporting();
}
