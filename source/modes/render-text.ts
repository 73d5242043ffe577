import type {CoreEvent, EmitEvent} from '../core/events.js';
import {printable, printableExact, writeErr, writeOut} from '../shared/output.js';
import {summariseArguments} from '../shared/summarise-arguments.js';
import {messageText} from '../shared/message-text.js';

/**
 * Plain text: the answer on stdout, everything else (tool activity,
 * approvals, retries, warnings, errors) as short lines on stderr. No ANSI,
 * no cursor movement.
 */
export function createTextRenderer(options: {announceSession: boolean; showMessages?: boolean}): EmitEvent {
	let openLine = false;
	// At a terminal the answer's control characters would steer it (a title, colours, an OSC 52 clipboard
	// write): shown as the chat screen shows them. To a pipe or a file the answer goes byte for byte.
	const answer = process.stdout.isTTY ? terminalText() : {write: (text: string) => text, end: () => ''};
	const render = (event: CoreEvent) => {
		switch (event.type) {
			case 'session': {
				if (options.announceSession) writeErr(`i: session ${event.path}${event.resumed_messages > 0 ? ` (resumed, ${event.resumed_messages} messages)` : ''}\n`);
				if (event.dropped)
					writeErr(printable(`i: session repaired: dropped ${event.dropped.lines} line(s), ${event.dropped.bytes} bytes (${event.dropped.reason}); they are kept in ${event.dropped.savedTo}`) + '\n');
				break;
			}

			case 'text_delta': {
				writeOut(answer.write(event.text));
				openLine = !event.text.endsWith('\n');
				break;
			}

			case 'tool_call': {
				// The answer so far ends its line, as on the chat screen: with stdout and stderr on one terminal or file, the tool line never runs into it.
				endLine();
				// What runs is shown exactly: a bidi override in a command would draw it reversed (docs/approvals.md).
				writeErr(printableExact(`i: tool ${event.name} ${summariseArguments(event.arguments)}`) + '\n');
				break;
			}

			case 'approval': {
				if (event.decision === 'deny') writeErr(printableExact(`i: not run: ${event.title} (${event.owner}): ${event.reason ?? 'denied'}`) + '\n');
				break;
			}

			case 'tool_result': {
				if (event.is_error) writeErr(printable(`i: ${event.name} failed: ${firstLine(event.output).replace(/^Error: /, '')}`) + '\n');
				break;
			}

			case 'retry': {
				writeErr(printable(`i: ${event.reason}; retry ${event.attempt} in ${(event.delay_ms / 1000).toFixed(1)} s`) + '\n');
				break;
			}

			case 'compaction': {
				writeErr(`i: compacted the history: ${event.before_bytes} → ${event.after_bytes} bytes\n`);
				break;
			}

			case 'warning': {
				writeErr(printable(`i: warning: ${event.message}`) + '\n');
				break;
			}

			case 'error': {
				endLine();
				writeErr(printable(`i: error: ${event.message}`) + '\n');
				break;
			}

			case 'done': {
				endLine();
				if (event.reason === 'length') writeErr('i: warning: the answer was cut off at max_tokens\n');
				break;
			}

			case 'custom_message': {
				// Line mode says what an extension added to the conversation when it asked to be shown; -p's output is the answer alone.
				if (!options.showMessages || !event.display) break;
				endLine();
				writeErr(printable(`i: ${event.customType === null ? `message from ${event.extension}` : `[${event.customType}]`} ${firstLine(messageText(event.content))}`) + '\n');
				break;
			}

			case 'child': {
				// Line mode's short line: a child's start and its end; its progress in between would only add noise.
				if (event.status === 'running' && event.activity !== 'starting') break;
				endLine();
				const who = `child ${event.role} (${event.id})`;
				const turns = `${event.turns} turn${event.turns === 1 ? '' : 's'}`;
				writeErr(
					printable(event.status === 'running' ? `i: ${who} started` : event.status === 'done' ? `i: ${who} ${event.activity} after ${turns}` : `i: ${who} failed after ${turns}: ${event.activity}`) + '\n',
				);
				break;
			}

			case 'entry':
			case 'thinking_delta':
			case 'tool_started':
			case 'tool_update':
			case 'usage':
			case 'budget': {
				break;
			}
		}
	};

	function endLine() {
		writeOut(answer.end());
		if (openLine) writeOut('\n');
		openLine = false;
	}

	return render;
}

/**
 * The answer for a terminal, delta by delta, as the chat screen shows it:
 * CRLF as a newline, every other control character but tab and newline as
 * �. A CR that ends a delta waits for the next, which may begin with its LF.
 */
function terminalText(): {write(text: string): string; end(): string} {
	let heldReturn = false;
	return {
		write(text) {
			const joined = (heldReturn ? '\r' : '') + text;
			heldReturn = joined.endsWith('\r');
			return printable((heldReturn ? joined.slice(0, -1) : joined).replaceAll('\r\n', '\n'));
		},
		end() {
			const rest = heldReturn ? printable('\r') : '';
			heldReturn = false;
			return rest;
		},
	};
}

function firstLine(text: string): string {
	const line = text.split('\n', 1)[0] ?? '';
	return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
