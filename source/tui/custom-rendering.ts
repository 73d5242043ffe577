import type {CoreEvent} from '../core/events.js';
import type {ExtensionUi} from '../core/session/start-extensions.js';
import {describeThrown} from '../core/extensions/describe-thrown.js';
import {messageText} from '../shared/message-text.js';
import {readRenderedText} from './rendered-text.js';

type CustomMessageEvent = Extract<CoreEvent, {type: 'custom_message'}>;
type EntryEvent = Extract<CoreEvent, {type: 'entry'}>;

/** How the chat screen shows one: a label (whose it is) and its text. */
export interface CustomView {
	label: string;
	text: string;
}

export interface CustomRendering {
	/** A committed extension message: null when it is not to be shown (`display: false`). */
	message(event: CustomMessageEvent): CustomView | null;
	/** A committed entry: null when no extension renders its customType. */
	entry(event: EntryEvent): CustomView | null;
}

/** The default for an entry whose renderer failed: its data as JSON, cut to this many characters. */
export const ENTRY_DEFAULT_CHARS = 200;

/**
 * The extensions' message and entry renderers for the chat screen (line mode
 * and -p never call them). A renderer takes data and answers text or lines;
 * one that throws or answers another shape (a promise, a React element) is
 * reported once per extension and customType, and the item is shown the
 * default way: its customType and its text (an entry: its data as JSON);
 * an answer of nothing asks for the default without a notice.
 */
export function customRendering(ui: Pick<ExtensionUi, 'messageRenderers' | 'entryRenderers'>, report: (message: string) => void): CustomRendering {
	const reported = new Set<string>();
	const failed = (kind: string, extension: string, customType: string, problem: string) => {
		const key = `${kind}\0${extension}\0${customType}`;
		if (reported.has(key)) return;
		reported.add(key);
		report(`the ${kind} renderer of extension ${extension} for "${customType}" ${problem}; shown the default way`);
	};

	const run = (kind: 'message' | 'entry', owner: {extension: string; render: (value: never) => unknown}, customType: string, value: unknown): string | null => {
		let answer: unknown;
		try {
			answer = (owner.render as (value: unknown) => unknown)(value);
		} catch (error) {
			failed(kind, owner.extension, customType, `failed: ${describeThrown(error)}`);
			return null;
		}

		const text = readRenderedText(answer);
		if (typeof text === 'string') return text;
		// Nothing (or `{}`) asks for the default; any other shape is a mistake worth one notice.
		if (text === null) failed(kind, owner.extension, customType, 'answered neither {text}, {lines} nor a string (a renderer is synchronous and returns text, never an element)');
		return null;
	};

	return {
		message(event) {
			if (!event.display) return null;
			const fallback = messageText(event.content);
			if (event.customType === null) return {label: event.extension, text: fallback};
			const owner = ui.messageRenderers.get(event.customType);
			const view = {customType: event.customType, content: event.content, display: event.display, ...(event.details === null ? {} : {details: event.details})};
			const text = owner ? run('message', owner, event.customType, view) : null;
			return {label: event.customType, text: text ?? fallback};
		},
		entry(event) {
			const owner = ui.entryRenderers.get(event.customType);
			if (!owner) return null;
			const text = run('entry', owner, event.customType, {customType: event.customType, data: event.data});
			return {label: event.customType, text: text ?? shortJson(event.data)};
		},
	};
}

function shortJson(data: unknown): string {
	const text = JSON.stringify(data) ?? 'null';
	return text.length > ENTRY_DEFAULT_CHARS ? `${text.slice(0, ENTRY_DEFAULT_CHARS - 1)}…` : text;
}
