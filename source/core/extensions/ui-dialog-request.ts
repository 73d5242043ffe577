import * as z from 'zod/mini';
import {describeIssues} from '../config/describe-issues.js';
import {RuntimeActionError} from './runtime-link.js';

/*
 * `api.runtime.uiDialog(request, ctx?)` (spec/extensions.md §3, issue 15 item
 * 7): a question an extension asks the person on the chat screen. The bounds
 * (listed in spec/extensions.md §3) are i's own: what fits a terminal and a
 * person's patience, and no more than a hostile extension may make the screen
 * hold.
 */

/** A dialog's title: one line of a terminal, and the UiPromptStart payload. */
export const MAX_DIALOG_TITLE_CHARS = 200;
/** A confirm dialog's message under the title. */
export const MAX_DIALOG_MESSAGE_CHARS = 2000;
/** Options of one select dialog (the list scrolls past MAX_VISIBLE_OPTIONS on the screen). */
export const MAX_DIALOG_OPTIONS = 100;
/** An option's label, what the person reads. */
export const MAX_OPTION_LABEL_CHARS = 200;
/** An option's value, what the extension gets back. */
export const MAX_OPTION_VALUE_CHARS = 200;
/** An option's description, shown dim beside its label. */
export const MAX_OPTION_DESCRIPTION_CHARS = 500;
/** An input dialog's placeholder. */
export const MAX_INPUT_PLACEHOLDER_CHARS = 200;
/** An input dialog's answer (and its default): typing stops there. */
export const MAX_INPUT_CHARS = 10_000;
/** `timeoutMs` bounds: at least a tenth of a second, at most an hour. */
export const MIN_DIALOG_TIMEOUT_MS = 100;
export const MAX_DIALOG_TIMEOUT_MS = 3_600_000;
/** Dialogs one extension may have open or waiting at once: a loop that asks without waiting is refused, not queued forever. */
export const MAX_PENDING_DIALOGS = 16;

export interface DialogOption {
	value: string;
	label: string;
	description?: string;
}

/** A checked request, options in their long form. */
export type DialogRequest =
	| {type: 'select'; title: string; options: DialogOption[]; default?: string; timeoutMs?: number}
	| {type: 'confirm'; title: string; message?: string; default?: boolean; timeoutMs?: number}
	| {type: 'input'; title: string; placeholder?: string; default?: string; secret?: boolean; timeoutMs?: number};

/** Why a dialog closed without an answer: absent for Esc. */
export type DialogCancelReason = 'timeout' | 'exit' | 'aborted';

/** What `uiDialog` resolves with. */
export type DialogAnswer = {value: string} | {confirmed: boolean} | {cancelled: true; reason?: DialogCancelReason};

const text = (field: string, max: number, constant: string) =>
	z.string(`${field} is not a string`).check(z.minLength(1, `${field} is empty`), z.maxLength(max, `${field} is longer than ${max} characters (${constant})`));
const optionalText = (field: string, max: number, constant: string) => z.optional(z.string(`${field} is not a string`).check(z.maxLength(max, `${field} is longer than ${max} characters (${constant})`)));
const title = text('the title', MAX_DIALOG_TITLE_CHARS, 'MAX_DIALOG_TITLE_CHARS');
const timeoutMs = z.optional(
	z
		.number('timeoutMs is not a number')
		.check(
			z.int('timeoutMs is not a whole number of milliseconds'),
			z.gte(MIN_DIALOG_TIMEOUT_MS, `timeoutMs is below ${MIN_DIALOG_TIMEOUT_MS} (MIN_DIALOG_TIMEOUT_MS)`),
			z.lte(MAX_DIALOG_TIMEOUT_MS, `timeoutMs is above ${MAX_DIALOG_TIMEOUT_MS} (MAX_DIALOG_TIMEOUT_MS)`),
		),
);
// An option is a string or an object; each form is checked on its own, so the error says what is wrong with it, not "no form fits".
const stringOption = text('an option', MAX_OPTION_LABEL_CHARS, 'MAX_OPTION_LABEL_CHARS');
const objectOption = z.strictObject({
	value: text('an option value', MAX_OPTION_VALUE_CHARS, 'MAX_OPTION_VALUE_CHARS'),
	label: text('an option label', MAX_OPTION_LABEL_CHARS, 'MAX_OPTION_LABEL_CHARS'),
	description: optionalText('an option description', MAX_OPTION_DESCRIPTION_CHARS, 'MAX_OPTION_DESCRIPTION_CHARS'),
});
const schema = z.discriminatedUnion('type', [
	z.strictObject({
		type: z.literal('select'),
		title,
		options: z
			.array(z.unknown(), 'options is not a list')
			.check(z.minLength(1, 'options is empty: a select needs at least one'), z.maxLength(MAX_DIALOG_OPTIONS, `more than ${MAX_DIALOG_OPTIONS} options (MAX_DIALOG_OPTIONS)`)),
		default: z.optional(z.string("the default is not a string (an option's value)")),
		timeoutMs,
	}),
	z.strictObject({
		type: z.literal('confirm'),
		title,
		message: optionalText('the message', MAX_DIALOG_MESSAGE_CHARS, 'MAX_DIALOG_MESSAGE_CHARS'),
		default: z.optional(z.boolean('the default is not true or false')),
		timeoutMs,
	}),
	z.strictObject({
		type: z.literal('input'),
		title,
		placeholder: optionalText('the placeholder', MAX_INPUT_PLACEHOLDER_CHARS, 'MAX_INPUT_PLACEHOLDER_CHARS'),
		default: optionalText('the default', MAX_INPUT_CHARS, 'MAX_INPUT_CHARS'),
		secret: z.optional(z.boolean('secret is not true or false')),
		timeoutMs,
	}),
]);

/** Checks an extension's request; a bad one is an `invalid_argument` error naming the extension, the field and the limit. */
export function parseDialogRequest(extension: string, request: unknown): DialogRequest {
	const refuse = (why: string) => new RuntimeActionError('uiDialog', 'invalid_argument', `extension ${extension}: ${why}`);
	if (request === null || typeof request !== 'object' || Array.isArray(request)) throw refuse('the request is not an object {type: "select" | "confirm" | "input", title, …}');
	if (!['select', 'confirm', 'input'].includes((request as {type?: unknown}).type as string)) {
		throw refuse(`field "type" is ${JSON.stringify((request as {type?: unknown}).type) ?? 'missing'}; it is one of "select", "confirm", "input"`);
	}

	const parsed = schema.safeParse(request);
	if (!parsed.success) throw refuse(describeIssues(parsed.error.issues, request));
	const checked = parsed.data;
	if (checked.type !== 'select') return checked;
	const options: DialogOption[] = checked.options.map((entry, index) => {
		const form = typeof entry === 'string' ? stringOption : objectOption;
		const option = form.safeParse(entry);
		if (!option.success) {
			const at = `options.${index}`;
			if (typeof entry === 'string') throw refuse(`field "${at}": ${option.error.issues[0]?.message}`);
			if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw refuse(`field "${at}" is neither a string nor {value, label, description?}`);
			// The object's issues name its own fields: put them under the option's place in the request.
			throw refuse(
				describeIssues(option.error.issues, entry)
					.replaceAll(/(?<!unknown )field "(\w+)"/g, `field "${at}.$1"`)
					.replaceAll(/(unknown fields? [^;]*)/g, `$1 in "${at}"`),
			);
		}

		return typeof option.data === 'string' ? {value: option.data, label: option.data} : option.data;
	});
	const values = new Set<string>();
	for (const [index, entry] of options.entries()) {
		if (values.has(entry.value)) throw refuse(`field "options.${index}": the value ${JSON.stringify(entry.value)} is there twice; each option's value is its own`);
		values.add(entry.value);
	}

	if (checked.default !== undefined && !values.has(checked.default)) throw refuse(`field "default": ${JSON.stringify(checked.default).slice(0, 80)} is not the value of an option`);
	return {...checked, options};
}

export type {DialogBinding} from './runtime-link.js';
export {dialogBinding} from './runtime-link.js';
