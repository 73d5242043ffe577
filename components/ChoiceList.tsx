import {useEffect, useRef, useState, type ComponentType} from 'react';
import {Box, Text, useInput} from 'ink';
import type {ChoiceOption, PendingChoice} from '../source/tui/chooser-broker.js';
import {loadTextInput, MAX_VISIBLE_OPTIONS} from './ExtensionDialog.js';

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

/**
 * The screen's own picker (/provider, /model, the first run): a filter field
 * (ink-text-input, loaded with the first one shown) above the options that
 * match it; ↑↓ move, Enter chooses, Esc cancels.
 */
export function ChoiceList({pending, maxVisible = MAX_VISIBLE_OPTIONS}: {pending: PendingChoice; maxVisible?: number}) {
	const {request} = pending;
	const [filter, setFilter] = useState('');
	const [index, setIndex] = useState(0);
	// The state as last changed: Ink's key handler may be the previous render's (see ExtensionDialog's Select).
	const latest = useRef({filter: '', index: 0});
	const [TextInput, setTextInput] = useState<ComponentType<TextInputProps> | undefined>(undefined);
	useEffect(() => {
		let live = true;
		loadTextInput().then(
			loaded => live && setTextInput(() => loaded),
			() => {},
		);
		return () => {
			live = false;
		};
	}, []);

	const shown = filterOptions(request.options, filter);
	const move = (by: number) => {
		const count = filterOptions(request.options, latest.current.filter).length;
		latest.current.index = Math.min(Math.max(0, count - 1), Math.max(0, latest.current.index + by));
		setIndex(latest.current.index);
	};

	const choose = () => {
		const options = filterOptions(request.options, latest.current.filter);
		const option = options[latest.current.index];
		if (option) pending.answer(option.value);
	};

	useInput((_input, key) => {
		if (key.escape) pending.answer(null);
		else if (key.upArrow) move(-1);
		else if (key.downArrow) move(1);
		// Without the text input yet, Enter is still heard here; with it, its onSubmit chooses.
		else if (key.return && !TextInput) choose();
	});

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
						value={filter}
						placeholder="type to filter"
						onChange={next => {
							latest.current = {filter: next, index: 0};
							setFilter(next);
							setIndex(0);
						}}
						onSubmit={choose}
					/>
				) : (
					<Text dimColor>…</Text>
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
			<Text dimColor>{request.legend === undefined ? '' : `${request.legend} · `}type to filter · ↑↓ to move · Enter to choose · Esc to cancel</Text>
		</Box>
	);
}
