import type {CliOptions} from '../cli-options.js';
import {startPlugins, type StartedPlugins} from '../core/session/start-plugins.js';

/**
 * What the chat begins before its screen's modules load, as print mode
 * does: the config read and the workers started, so the agent's set-up
 * behind the first frame finds them under way. The terminal goes into raw
 * mode at once, so keys typed meanwhile are neither echoed over the screen
 * nor held back as a line: the editor reads them when it comes.
 */
export class EarlyStart {
	/** Peeked at for the status line; owned by whichever set-up takes it. */
	readonly plugins: Promise<StartedPlugins>;
	#untaken: Promise<StartedPlugins> | undefined;

	constructor(options: CliOptions) {
		if (process.stdin.isTTY) process.stdin.setRawMode(true);
		this.plugins = startPlugins(options);
		// Its failure (a broken config, none at all) is met where a set-up takes it.
		this.plugins.catch(() => {});
		this.#untaken = this.plugins;
	}

	/** The started plugins for the first set-up that asks; undefined after that (a first-run setup starts them again with the config it wrote). */
	take(): Promise<StartedPlugins> | undefined {
		const taken = this.#untaken;
		this.#untaken = undefined;
		return taken;
	}

	/** No set-up will take them (the first-run setup writes the config the next one reads): their workers, if any, stop. */
	forget(): void {
		this.take()
			?.then(async ({pool}) => pool?.close())
			.catch(() => {});
	}

	/** The chat is over: what no set-up took stops, and the terminal leaves raw mode if the screen never came. */
	release(): void {
		if (process.stdin.isTTY) process.stdin.setRawMode(false);
		this.forget();
	}
}

export function earlyStart(options: CliOptions): EarlyStart {
	return new EarlyStart(options);
}
