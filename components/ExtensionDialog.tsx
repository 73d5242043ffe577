import {useEffect, useRef, useState} from 'react';
import {Box, Text, useInput} from 'ink';
import type {DialogAnswer, DialogRequest} from '../source/core/extensions/ui-dialog-request.js';
import {MAX_INPUT_CHARS} from '../source/core/extensions/ui-dialog-request.js';
import type {PendingDialog} from '../source/tui/brokers/dialog-broker.js';
import {TYPEAHEAD_GUARD_MS} from './Approval.js';
import {useTextInput} from './use-text-input.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** Options a select shows at once; the window follows the highlighted one. */
export const MAX_VISIBLE_OPTIONS = 10;

export interface ExtensionDialogProps {
	pending: PendingDialog;
	/** Options shown at once (the terminal's height may allow fewer than MAX_VISIBLE_OPTIONS). */
	maxVisible?: number;
	/** Ctrl-C: the dialog closes as the person leaving, and what runs is interrupted as Ctrl-C does. */
	onLeave(): void;
}

/**
 * An extension's question (`api.runtime.uiDialog`): select, confirm or
 * input, keyboard only, with the asking extension named. Esc cancels;
 * Ctrl-C cancels as leaving. Keys typed just before it appeared were meant
 * for the editor and answer nothing.
 */
export function ExtensionDialog({pending, maxVisible = MAX_VISIBLE_OPTIONS, onLeave}: ExtensionDialogProps) {
	const shownAt = useRef(Date.now());
	// biome-ignore lint/correctness/useExhaustiveDependencies: pending is the trigger: each new dialog starts its own guard.
	useEffect(() => {
		shownAt.current = Date.now();
	}, [pending]);
	const early = () => Date.now() - shownAt.current < TYPEAHEAD_GUARD_MS;
	const answer = (given: DialogAnswer) => pending.answer(given);
	useInput((input, key) => {
		if (key.ctrl && input === 'c') {
			answer({cancelled: true, reason: 'exit'});
			onLeave();
		} else if (key.escape) answer({cancelled: true});
	});

	const {request} = pending;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={colour('accent')} paddingX={1}>
			<Text bold color={colour('accent')}>
				{request.title} <Text dimColor>— asked by extension {pending.extension}</Text>
			</Text>
			{request.type === 'select' ? (
				<Select key={pending.id} request={request} maxVisible={Math.max(1, Math.min(maxVisible, MAX_VISIBLE_OPTIONS))} early={early} answer={answer} />
			) : request.type === 'confirm' ? (
				<Confirm key={pending.id} request={request} early={early} answer={answer} />
			) : (
				<Input key={pending.id} request={request} early={early} answer={answer} />
			)}
		</Box>
	);
}

interface PartProps<Type extends DialogRequest['type']> {
	request: Extract<DialogRequest, {type: Type}>;
	early(): boolean;
	answer(given: DialogAnswer): void;
}

function Select({request, maxVisible, early, answer}: PartProps<'select'> & {maxVisible: number}) {
	const {options} = request;
	const start = options.findIndex(option => option.value === request.default);
	const [index, setIndex] = useState(Math.max(0, start));
	// The highlight as last moved: Ink subscribes a new key handler after each render, and keys read before that
	// reach the previous one, so the handler never trusts the index it was made with.
	const highlighted = useRef(index);
	const move = (by: number) => {
		highlighted.current = Math.min(options.length - 1, Math.max(0, highlighted.current + by));
		setIndex(highlighted.current);
	};

	useInput((input, key) => {
		if (key.upArrow || input === 'k') move(-1);
		else if (key.downArrow || input === 'j') move(1);
		else if (key.return && !early()) answer({value: options[highlighted.current]!.value});
	});

	// The window keeps the highlighted option in view, as near the middle as the ends allow.
	const first = Math.min(Math.max(0, index - Math.floor(maxVisible / 2)), Math.max(0, options.length - maxVisible));
	const visible = options.slice(first, first + maxVisible);
	const below = options.length - first - visible.length;
	return (
		<Box flexDirection="column">
			{first > 0 ? <Text dimColor> ↑ {first} more</Text> : null}
			{visible.map((option, offset) => {
				const selected = first + offset === index;
				return (
					<Text key={option.value} color={selected ? colour('accent') : undefined}>
						{selected ? '❯ ' : '  '}
						<Text inverse={selected}>{option.label}</Text>
						{option.description === undefined ? null : <Text dimColor> {option.description}</Text>}
					</Text>
				);
			})}
			{below > 0 ? <Text dimColor> ↓ {below} more</Text> : null}
			<Text dimColor>↑↓ or j/k to move · Enter to choose · Esc to cancel</Text>
		</Box>
	);
}

function Confirm({request, early, answer}: PartProps<'confirm'>) {
	useInput((input, key) => {
		if (early()) return;
		if (input === 'y' || input === 'Y') answer({confirmed: true});
		else if (input === 'n' || input === 'N') answer({confirmed: false});
		else if (key.return && request.default !== undefined) answer({confirmed: request.default});
	});

	const enter = request.default === undefined ? '' : ` · Enter for ${request.default ? 'yes' : 'no'}`;
	return (
		<Box flexDirection="column">
			{request.message === undefined ? null : <Text>{request.message}</Text>}
			<Text>
				[y] yes [n] no<Text dimColor>{enter} · Esc to cancel</Text>
			</Text>
		</Box>
	);
}

function Input({request, early, answer}: PartProps<'input'>) {
	const [value, setValue] = useState(request.default ?? '');
	// What Enter answers: the text as last changed, not the value the key handler was made with (see Select).
	const latest = useRef(value);
	const TextInput = useTextInput();

	const full = value.length >= MAX_INPUT_CHARS;
	return (
		<Box flexDirection="column">
			<Box>
				<Text color={colour('accent')}>› </Text>
				{TextInput ? (
					<TextInput
						value={value}
						placeholder={request.placeholder}
						mask={request.secret ? '*' : undefined}
						onChange={next => {
							latest.current = next.slice(0, MAX_INPUT_CHARS);
							setValue(latest.current);
						}}
						onSubmit={() => !early() && answer({value: latest.current})}
					/>
				) : (
					<Text dimColor>…</Text>
				)}
			</Box>
			<Text dimColor>
				Enter to answer · Esc to cancel{request.secret ? ' · the typing is hidden' : ''}
				{full ? ` · at most ${MAX_INPUT_CHARS} characters` : ''}
			</Text>
		</Box>
	);
}
