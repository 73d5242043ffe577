import {Box, Text} from 'ink';
import type {PendingChoice} from '../source/tui/brokers/chooser-broker.js';
import {MAX_VISIBLE_OPTIONS} from './ExtensionDialog.js';
import {useChoice} from './use-choice.js';
import {useTextInput} from './use-text-input.js';
import {colour} from '../source/tui/theme/active-palette.js';

/**
 * The screen's own picker (/provider, /model, the first run): a filter field
 * (ink-text-input, loaded with the first one shown) above the options that
 * match it, the one in use marked `(current)` and highlighted first; ↑↓
 * move, Enter chooses, Esc cancels, Ctrl-C leaves (`onLeave`; without it,
 * Ctrl-C cancels as Esc does).
 *
 * Keys are heard from the first frame (use-choice.ts): until the text
 * input is loaded and listening, what is typed goes into the filter there, so
 * a filter typed the moment the list shows is never lost.
 */
export function ChoiceList({pending, maxVisible = MAX_VISIBLE_OPTIONS, onLeave}: {pending: PendingChoice; maxVisible?: number; onLeave?: (() => void) | undefined}) {
	const {request} = pending;
	const TextInput = useTextInput();
	const {filter, index, shown, early, changeFilter, choose} = useChoice(pending, {inputReady: TextInput !== undefined, onLeave});
	const visibleCount = Math.max(1, Math.min(maxVisible, MAX_VISIBLE_OPTIONS));
	const first = Math.min(Math.max(0, index - Math.floor(visibleCount / 2)), Math.max(0, shown.length - visibleCount));
	const visible = shown.slice(first, first + visibleCount);
	const below = shown.length - first - visible.length;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={colour('accent')} paddingX={1}>
			<Text bold color={colour('accent')}>
				{request.title}
			</Text>
			<Box>
				<Text color={colour('accent')}>filter › </Text>
				{TextInput ? <TextInput key={early} value={filter} placeholder="type to filter" onChange={changeFilter} onSubmit={choose} /> : filter === '' ? <Text dimColor>…</Text> : <Text>{filter}</Text>}
			</Box>
			{first > 0 ? <Text dimColor> ↑ {first} more</Text> : null}
			{shown.length === 0 ? <Text dimColor> nothing matches "{filter}"</Text> : null}
			{visible.map((option, offset) => {
				const selected = first + offset === index;
				return (
					<Text key={option.value} color={selected ? colour('accent') : undefined}>
						{selected ? '❯ ' : '  '}
						{option.marked ? <Text color={colour('success')}>● </Text> : '  '}
						<Text inverse={selected}>{option.label}</Text>
						{option.value === request.current ? <Text color={colour('success')}> (current)</Text> : null}
						{option.description === undefined ? null : <Text dimColor> {option.description}</Text>}
					</Text>
				);
			})}
			{below > 0 ? <Text dimColor> ↓ {below} more</Text> : null}
			<Text dimColor>
				{request.legend === undefined ? '' : `${request.legend} · `}type to filter · ↑↓ to move · Enter to {request.enter ?? 'choose'} · Esc to {request.escape ?? 'cancel'}
			</Text>
		</Box>
	);
}
