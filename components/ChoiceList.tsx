import {useEffect, useRef, useState, type ComponentType} from 'react';
import {Box, Text} from 'ink';
import type {ChoiceOption, PendingChoice} from '../source/tui/brokers/chooser-broker.js';
import {loadedTextInput, loadTextInput, MAX_VISIBLE_OPTIONS} from './ExtensionDialog.js';
import {useRawInput} from './use-raw-input.js';

type TextInputProps = {value: string; placeholder?: string; focus?: boolean; onChange(value: string): void; onSubmit(value: string): void};

/** The options whose value, label or description hold every word of the filter, in their order. */
export function filterOptions(options: readonly ChoiceOption[], filter: string): ChoiceOption[] {
	const words = filter
		.toLowerCase()
		.split(/\s+/)
		.filter(word => word !== '');
	if (words.length === 0) return [...options];
	return options.filter(option => {
		const text = `${option.value} ${option.label} ${option.description ?? ''}`.toLowerCase();
		return words.every(word => text.includes(word));
	});
}

/** Typed text as a filter takes it: one line, no control characters. */
const filterText = (text: string) => text.replaceAll(/[\u0000-\u001F\u007F]/g, '');

/**
 * The screen's own picker (/provider, /model, the first run): a filter field
 * (ink-text-input, loaded with the first one shown) above the options that
 * match it; ↑↓ move, Enter chooses, Esc cancels, Ctrl-C leaves (`onLeave`;
 * without it, Ctrl-C cancels as Esc does).
 *
 * Keys are heard from the first frame (use-keys-at-once.ts): until the text
 * input is loaded and listening, what is typed goes into the filter here, so
 * a filter typed the moment the list shows is never lost.
 */
export function ChoiceList({pending, maxVisible = MAX_VISIBLE_OPTIONS, onLeave}: {pending: PendingChoice; maxVisible?: number; onLeave?: (() => void) | undefined}) {
	const {request} = pending;
	const [filter, setFilter] = useState('');
	const [index, setIndex] = useState(0);
	// The state as last changed: a key handler may run before the render that follows the previous key.
	const latest = useRef({filter: '', index: 0});
	const [TextInput, setTextInput] = useState<ComponentType<TextInputProps> | undefined>(() => loadedTextInput());
	// Whether the text input hears keys itself: its listener is attached in its effect, which runs before this component's.
	const listening = useRef(false);
	// Text typed here before that remounts the text input, whose caret is placed at the end of the value it mounts with.
	const [early, setEarly] = useState(0);
	useEffect(() => {
		if (TextInput) {
			listening.current = true;
			return;
		}

		let live = true;
		loadTextInput().then(
			loaded => live && setTextInput(() => loaded),
			() => {},
		);
		return () => {
			live = false;
		};
	}, [TextInput]);

	const shown = filterOptions(request.options, filter);
	const setLatest = (next: {filter: string; index: number}) => {
		latest.current = next;
		setFilter(next.filter);
		setIndex(next.index);
	};

	const move = (by: number) => {
		const count = filterOptions(request.options, latest.current.filter).length;
		setLatest({filter: latest.current.filter, index: Math.min(Math.max(0, count - 1), Math.max(0, latest.current.index + by))});
	};

	const choose = () => {
		const options = filterOptions(request.options, latest.current.filter);
		const option = options[latest.current.index];
		if (option) pending.answer(option.value);
	};

	useRawInput(
		actions => {
			for (const action of actions) {
				switch (action.type) {
					case 'escape': {
						pending.answer(null);
						return;
					}

					case 'ctrlC': {
						if (onLeave) onLeave();
						else pending.answer(null);
						return;
					}

					case 'up': {
						move(-1);
						break;
					}

					case 'down': {
						move(1);
						break;
					}

					default: {
						// The text input edits and submits once it listens; until then, here.
						if (listening.current) break;
						if (action.type === 'insert') {
							setLatest({filter: latest.current.filter + filterText(action.text), index: 0});
							setEarly(count => count + 1);
						} else if (action.type === 'backspace') {
							setLatest({filter: [...latest.current.filter].slice(0, -1).join(''), index: 0});
							setEarly(count => count + 1);
						} else if (action.type === 'submit') {
							choose();
							return;
						}
					}
				}
			}
		},
		true,
		{atOnce: true, bracketedPaste: false},
	);

	const visibleCount = Math.max(1, Math.min(maxVisible, MAX_VISIBLE_OPTIONS));
	const first = Math.min(Math.max(0, index - Math.floor(visibleCount / 2)), Math.max(0, shown.length - visibleCount));
	const visible = shown.slice(first, first + visibleCount);
	const below = shown.length - first - visible.length;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
			<Text bold color="cyan">
				{request.title}
			</Text>
			<Box>
				<Text color="cyan">filter › </Text>
				{TextInput ? (
					<TextInput
						key={early}
						value={filter}
						placeholder="type to filter"
						onChange={next => {
							// ink-text-input takes a burst of keys as one text ("mocky\r" typed at once, a paste): a line break in it is Enter.
							setLatest({filter: filterText(next), index: 0});
							if (/[\r\n]/.test(next)) choose();
						}}
						onSubmit={choose}
					/>
				) : filter === '' ? (
					<Text dimColor>…</Text>
				) : (
					<Text>{filter}</Text>
				)}
			</Box>
			{first > 0 ? <Text dimColor> ↑ {first} more</Text> : null}
			{shown.length === 0 ? <Text dimColor> nothing matches "{filter}"</Text> : null}
			{visible.map((option, offset) => {
				const selected = first + offset === index;
				return (
					<Text key={option.value} color={selected ? 'cyan' : undefined}>
						{selected ? '❯ ' : '  '}
						{option.marked ? <Text color="green">● </Text> : '  '}
						<Text inverse={selected}>{option.label}</Text>
						{option.description === undefined ? null : <Text dimColor> {option.description}</Text>}
					</Text>
				);
			})}
			{below > 0 ? <Text dimColor> ↓ {below} more</Text> : null}
			<Text dimColor>
				{request.legend === undefined ? '' : `${request.legend} · `}type to filter · ↑↓ to move · Enter to choose · Esc to {request.escape ?? 'cancel'}
			</Text>
		</Box>
	);
}
