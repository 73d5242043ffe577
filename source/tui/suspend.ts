import type {ChatStore} from './chat-store.js';

/** Ink draws at most one frame per 33 ms (maxFps 30): two of them, so the erased frame is on the terminal before the stop. */
const ERASED_FRAME_MS = 70;
const SHOW_CURSOR = '\u001B[?25h';

/**
 * Ctrl-Z, as a shell's job control expects it: the live region is erased
 * and the terminal given back (the editor, which holds raw mode and
 * bracketed paste, unmounts with it), then the process stops (SIGTSTP); on
 * `fg` (SIGCONT) the live region is drawn again below what the shell wrote.
 * Windows has no job control: a notice says so.
 */
export function suspendChat(store: ChatStore, write: (bytes: string) => void): void {
	if (process.platform === 'win32') {
		store.notice('info', 'Ctrl-Z does not suspend on Windows');
		return;
	}

	store.hideLive(true);
	// With the editor gone nothing holds the event loop (Ink lets stdin go): this does, until fg.
	const hold = setInterval(() => {}, 60_000);
	setTimeout(() => {
		write(SHOW_CURSOR);
		process.once('SIGCONT', () => {
			clearInterval(hold);
			store.hideLive(false);
		});
		process.kill(process.pid, 'SIGTSTP');
	}, ERASED_FRAME_MS);
}
