import {notificationBytes, type NotifyStyle} from './notify-style.js';

/** A turn longer than this notifies at its end (or at an approval) when the terminal's focus is unknown (issue 17 item 6). */
export const LONG_TURN_MS = 10_000;
/** The notification's title (OSC 777; OSC 9 puts it before the body). */
export const NOTIFY_TITLE = 'i';

/**
 * Tells a person who looked away that the chat screen needs them: a turn
 * ended, or an approval waits. With focus reports (focus-report.ts) it
 * notifies only while the terminal is not focused; before the first report
 * (a terminal without them) only when the turn ran longer than LONG_TURN_MS,
 * when the person has likely turned to something else. A turn the person
 * stopped (Esc) does not notify: they are there.
 */
export class Notifier {
	#style: NotifyStyle = 'off';
	readonly #write: (bytes: string) => void;
	readonly #now: () => number;
	/** null until the terminal reports its focus. */
	#focused: boolean | null = null;
	#turnStarted: number | null = null;

	/** Off until `setStyle`: the settings are read once the agent is set up. */
	constructor(write: (bytes: string) => void, now: () => number = Date.now) {
		this.#write = write;
		this.#now = now;
	}

	get style(): NotifyStyle {
		return this.#style;
	}

	setStyle(style: NotifyStyle): void {
		this.#style = style;
	}

	focusChanged(focused: boolean): void {
		this.#focused = focused;
	}

	turnStarted(): void {
		this.#turnStarted = this.#now();
	}

	/** The run ended: `reason` is the core's done reason (`stop`, `error`, `interrupted`, …). */
	turnEnded(reason: string): void {
		const long = this.#long();
		this.#turnStarted = null;
		if (reason === 'interrupted') return;
		this.#notify(reason === 'error' ? 'the turn failed' : reason === 'max_steps' ? 'the turn stopped at max_steps' : 'the answer is ready', long);
	}

	/** An approval question is shown: `what` names the tool call. */
	approvalWaiting(what: string): void {
		this.#notify(`approval needed: ${what}`, this.#long());
	}

	#long(): boolean {
		return this.#turnStarted !== null && this.#now() - this.#turnStarted > LONG_TURN_MS;
	}

	#notify(body: string, long: boolean): void {
		if (this.#style === 'off' || this.#focused === true) return;
		if (this.#focused === null && !long) return;
		this.#write(notificationBytes(this.#style, NOTIFY_TITLE, body));
	}
}
