/**
 * Terminal focus reporting (xterm's mode 1004): once asked with
 * `ESC [ ? 1004 h`, the terminal sends `ESC [ I` when its window gains focus
 * and `ESC [ O` when it loses it, until `ESC [ ? 1004 l`. Those reports come
 * in on stdin like keys and must never be taken for typed text.
 */
export const FOCUS_REPORTING_ON = '\u001B[?1004h';
export const FOCUS_REPORTING_OFF = '\u001B[?1004l';
export const FOCUS_IN = '\u001B[I';
export const FOCUS_OUT = '\u001B[O';

/** True for a focus-in report, false for focus-out, null for any other input. */
export function focusReport(input: string): boolean | null {
	if (input === FOCUS_IN) return true;
	if (input === FOCUS_OUT) return false;
	return null;
}

/** `input` without the focus reports in it: a run of input events joined (tests, a terminal that sends them with keys). */
export function withoutFocusReports(input: string): string {
	return input.includes('\u001B[') ? input.replaceAll(FOCUS_IN, '').replaceAll(FOCUS_OUT, '') : input;
}
