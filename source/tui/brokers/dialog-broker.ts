import {RuntimeActionError} from '../../core/extensions/runtime-link.js';
import {MAX_INPUT_CHARS, MAX_PENDING_DIALOGS, parseDialogRequest, type DialogAnswer, type DialogBinding, type DialogCancelReason, type DialogRequest} from '../../core/extensions/ui-dialog-request.js';
import {printable, printableLine} from '../../shared/output.js';
import {OpenQuestion, QuestionLine} from './open-question.js';
import type {PromptObserver, UiPrompt, UiPromptAnswer, UiPromptDetail} from '../ui-prompt-events.js';

/** A dialog on the screen: the request as shown (no control character, titles and labels on one line) and how to answer it. */
export interface PendingDialog {
	id: string;
	extension: string;
	request: DialogRequest;
	answer(answer: DialogAnswer): void;
}

/**
 * How the chat screen answers `api.runtime.uiDialog` (the service run-tui
 * provides): each request is checked, waits its turn on the screen's one
 * question line (behind an approval, say), is shown by the dialog widget,
 * and closes with the person's answer, Esc, its timeout, the cancel of the
 * call it belongs to, or the person leaving. UiPromptStart fires as it
 * appears and UiPromptEnd as it goes; a dialog withdrawn before it showed
 * fires neither.
 */
export class DialogBroker extends OpenQuestion<PendingDialog> {
	readonly #line: QuestionLine;
	readonly #observer: PromptObserver | undefined;
	/** Each open or waiting dialog's closer: leaving closes them all. */
	readonly #closers = new Set<AbortController>();
	readonly #pending = new Map<string, number>();
	#count = 0;
	#left = false;

	constructor(observer?: PromptObserver, line: QuestionLine = new QuestionLine()) {
		super();
		this.#observer = observer;
		this.#line = line;
	}

	readonly ask = async (extension: string, request: unknown, binding: DialogBinding = {}): Promise<DialogAnswer> => {
		const checked = parseDialogRequest(extension, request);
		if (binding.invocation?.ended) {
			throw new RuntimeActionError('uiDialog', 'stale', `extension ${extension}: the tool call ${binding.invocation.toolCallId} this dialog belongs to has ended`);
		}

		if (this.#left) return {cancelled: true, reason: 'exit'};
		if (binding.signal?.aborted) return {cancelled: true, reason: 'aborted'};
		const open = this.#pending.get(extension) ?? 0;
		if (open >= MAX_PENDING_DIALOGS) {
			throw new RuntimeActionError(
				'uiDialog',
				'limit_reached',
				`extension ${extension}: ${open} of its dialogs are open or waiting, the most there may be (MAX_PENDING_DIALOGS ${MAX_PENDING_DIALOGS}); await one before asking again`,
			);
		}

		this.#pending.set(extension, open + 1);
		// One closer for every way a dialog ends unanswered; its abort reason is the answer's.
		const closer = new AbortController();
		const onCancel = () => closer.abort('aborted' satisfies DialogCancelReason);
		binding.signal?.addEventListener('abort', onCancel, {once: true});
		this.#closers.add(closer);
		try {
			return await this.#show(extension, checked, closer.signal);
		} finally {
			binding.signal?.removeEventListener('abort', onCancel);
			this.#closers.delete(closer);
			const left = (this.#pending.get(extension) ?? 1) - 1;
			if (left === 0) this.#pending.delete(extension);
			else this.#pending.set(extension, left);
		}
	};

	/** The person left (Ctrl-C, /exit, a signal): every dialog open or waiting closes as `{cancelled: true, reason: 'exit'}`, and later ones at once. */
	leave(): void {
		this.#left = true;
		for (const closer of this.#closers) closer.abort('exit' satisfies DialogCancelReason);
	}

	async #show(extension: string, request: DialogRequest, closed: AbortSignal): Promise<DialogAnswer> {
		let release: () => void;
		try {
			release = this.#line.tryTake() ?? (await this.#line.take(closed));
		} catch {
			return {cancelled: true, reason: closed.reason as DialogCancelReason};
		}

		this.#count += 1;
		const id = `dialog-${this.#count}`;
		const prompt: UiPrompt = {id, kind: 'dialog', dialog: request.type, extension, title: request.title};
		this.#observer?.started(prompt);
		let settle!: (answer: DialogAnswer) => void;
		const answered = new Promise<DialogAnswer>(resolve => {
			settle = resolve;
		});
		// The timeout runs from when the person can see the dialog, not from the wait in line.
		const timer = request.timeoutMs === undefined ? undefined : setTimeout(() => settle({cancelled: true, reason: 'timeout'}), request.timeoutMs);
		const onClosed = () => settle({cancelled: true, reason: closed.reason as DialogCancelReason});
		closed.addEventListener('abort', onClosed, {once: true});
		this.show({
			id,
			extension: printableLine(extension),
			request: shown(request),
			answer(given) {
				const checked = checkedAnswer(request, given);
				if (checked) settle(checked);
			},
		});
		// The first way it ends wins; a key pressed after a timeout answers nothing.
		const answer = await answered;
		clearTimeout(timer);
		closed.removeEventListener('abort', onClosed);
		this.show(null);
		const [outcome, detail] = promptEnd(request, answer);
		// UiPromptEnd before the next question's UiPromptStart.
		this.#observer?.ended(prompt, outcome, detail);
		release();
		return answer;
	}
}

/** The widget is ours, but what reaches the extension is held to the request all the same: a known option, an input within its limit. */
function checkedAnswer(request: DialogRequest, answer: DialogAnswer): DialogAnswer | undefined {
	// The widget says Esc (no reason) or the person leaving; the other reasons are the broker's own.
	if ('cancelled' in answer) return answer.reason === 'exit' ? {cancelled: true, reason: 'exit'} : {cancelled: true};
	if (request.type === 'confirm') return {confirmed: 'confirmed' in answer && answer.confirmed};
	const value = 'value' in answer ? answer.value : '';
	if (request.type === 'input') return {value: value.slice(0, MAX_INPUT_CHARS)};
	return request.options.some(option => option.value === value) ? {value} : undefined;
}

function promptEnd(request: DialogRequest, answer: DialogAnswer): [UiPromptAnswer, UiPromptDetail | undefined] {
	if ('cancelled' in answer) return ['cancelled', answer.reason === undefined ? undefined : {reason: answer.reason}];
	if ('confirmed' in answer) return [answer.confirmed ? 'yes' : 'no', undefined];
	if (request.type === 'input') return ['entered', request.secret ? undefined : {value: answer.value}];
	return ['chosen', {value: answer.value}];
}

/** Titles, labels and names on one line, with no control character that would steer the terminal. */

/** What the widget shows: the extension's strings made safe for the terminal (the values stay as they are: they are what is answered). */
function shown(request: DialogRequest): DialogRequest {
	const title = printableLine(request.title);
	switch (request.type) {
		case 'select':
			return {
				...request,
				title,
				options: request.options.map(option => ({value: option.value, label: printableLine(option.label), ...(option.description === undefined ? {} : {description: printableLine(option.description)})})),
			};
		case 'confirm':
			return {...request, title, ...(request.message === undefined ? {} : {message: printable(request.message)})};
		case 'input':
			return {
				...request,
				title,
				...(request.placeholder === undefined ? {} : {placeholder: printableLine(request.placeholder)}),
				...(request.default === undefined ? {} : {default: printableLine(request.default)}),
			};
	}
}
