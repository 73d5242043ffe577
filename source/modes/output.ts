/**
 * Writes to stdout/stderr that survive a closed pipe (`i -p … | head`): an
 * EPIPE ends output quietly instead of crashing the process.
 */
let stdoutClosed = false;
process.stdout.on('error', error => {
	if ((error as NodeJS.ErrnoException).code === 'EPIPE') stdoutClosed = true;
	else throw error;
});
process.stderr.on('error', () => {});

export function writeOut(text: string): void {
	if (!stdoutClosed && text.length > 0) process.stdout.write(text);
}

export function writeErr(text: string): void {
	process.stderr.write(text);
}

/** Resolves once everything written to stdout has been handed to the OS. */
export async function drainStdout(): Promise<void> {
	if (stdoutClosed || !process.stdout.writableNeedDrain) return;
	await new Promise<void>(resolve => {
		process.stdout.once('drain', resolve);
		process.stdout.once('error', () => resolve());
	});
}
