import {useEffect, useRef, useState} from 'react';
import type {ChoiceOption, PendingChoice} from '../source/tui/brokers/chooser-broker.js';
import {useRawInput} from './use-raw-input.js';

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

export interface Choice {
	filter: string;
	/** The highlighted one of `shown`. */
	index: number;
	/** The options that match the filter. */
	shown: ChoiceOption[];
	/** How many edits were typed here before the text input listened: its key, so it remounts with the caret at the end of the value. */
	early: number;
	/** The text input's new value: the filter; a line break in it chooses. */
	changeFilter(text: string): void;
	/** Answers the highlighted option, if any matches. */
	choose(): void;
}

/**
 * The picker's filter and highlighted option, and its keys: ↑↓ move, Enter
 * chooses, Esc cancels, Ctrl-C leaves (`onLeave`; without it, Ctrl-C
 * cancels as Esc does). Keys are heard from the first frame
 * (use-raw-input.ts `atOnce`): until the text input is loaded and listening
 * (`inputReady`), what is typed goes into the filter here.
 */
export function useChoice(pending: PendingChoice, {inputReady, onLeave}: {inputReady: boolean; onLeave: (() => void) | undefined}): Choice {
	const {options, current} = pending.request;
	// The list opens on the option in use, so Enter alone keeps it.
	const start = Math.max(
		0,
		options.findIndex(option => option.value === current),
	);
	const [filter, setFilter] = useState('');
	const [index, setIndex] = useState(start);
	// The state as last changed: a key handler may run before the render that follows the previous key.
	const latest = useRef({filter: '', index: start});
	// Whether the text input hears keys itself: its listener is attached in its effect, which runs before this component's.
	const listening = useRef(false);
	// Text typed here before that remounts the text input, whose caret is placed at the end of the value it mounts with.
	const [early, setEarly] = useState(0);
	useEffect(() => {
		if (inputReady) listening.current = true;
	}, [inputReady]);

	const setLatest = (next: {filter: string; index: number}) => {
		latest.current = next;
		setFilter(next.filter);
		setIndex(next.index);
	};

	const move = (by: number) => {
		const count = filterOptions(options, latest.current.filter).length;
		setLatest({filter: latest.current.filter, index: Math.min(Math.max(0, count - 1), Math.max(0, latest.current.index + by))});
	};

	const choose = () => {
		const option = filterOptions(options, latest.current.filter)[latest.current.index];
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

	return {
		filter,
		index,
		shown: filterOptions(options, filter),
		early,
		changeFilter: next => {
			// ink-text-input takes a burst of keys as one text ("mocky\r" typed at once, a paste): a line break in it is Enter.
			setLatest({filter: filterText(next), index: 0});
			if (/[\r\n]/.test(next)) choose();
		},
		choose,
	};
}
