import type {ExtensionUi} from '../../core/session/start-extensions.js';
import {describeThrown} from '../../core/extensions/describe-thrown.js';
import type {ChatStore} from '../chat-store.js';
import {readRenderedText} from '../rendered-text.js';

/** An extension's command as the loaded generation holds it (with whose it is). */
export type ExtensionUiCommand = ExtensionUi['commands'] extends ReadonlyMap<string, infer C> ? C : never;

/**
 * Runs an extension's `/name` in the chat screen: its answer (text or lines)
 * is shown as a notice, `ctx.notify` lines while it runs, a throw as an
 * error naming the command and the extension. When its signal aborts (Esc)
 * the screen stops waiting at once; a late answer is not shown.
 */
export async function runExtensionCommand(
	name: string,
	command: ExtensionUiCommand,
	args: string,
	context: {workspace: string; sessionId: string; signal: AbortSignal; store: Pick<ChatStore, 'notice'>},
): Promise<void> {
	const {signal, store} = context;
	const where = `/${name} (extension ${command.extension})`;
	let answered: Promise<unknown>;
	try {
		answered = Promise.resolve(
			command.handler(args, {
				cwd: context.workspace,
				sessionId: context.sessionId,
				signal,
				notify(text: unknown) {
					if (!signal.aborted && typeof text === 'string') store.notice('info', `${where}: ${text}`);
				},
			}),
		);
	} catch (error) {
		answered = Promise.reject(error);
	}

	// Settles unobserved after a stop: never an unhandled rejection.
	answered.catch(() => {});
	const stopped = new Promise<'stopped'>(resolve => {
		if (signal.aborted) resolve('stopped');
		signal.addEventListener('abort', () => resolve('stopped'), {once: true});
	});
	try {
		const answer = await Promise.race([answered, stopped]);
		if (answer === 'stopped' || signal.aborted) {
			store.notice('info', `${where} stopped`);
			return;
		}

		const text = readRenderedText(answer);
		if (text === null) store.notice('warning', `${where} answered neither text, {text} nor {lines}`);
		else if (text !== undefined && text !== '') store.notice('info', text);
	} catch (error) {
		if (signal.aborted) store.notice('info', `${where} stopped`);
		else store.notice('error', `${where} failed: ${describeThrown(error)}`);
	}
}
