import {useRef} from 'react';
import {Box, Text, useInput} from 'ink';
import type {PendingTrust} from '../source/tui/trust-broker.js';
import {TYPEAHEAD_GUARD_MS} from './Approval.js';

/** Extensions listed by path at most; the rest are counted. */
export const MAX_LISTED_EXTENSIONS = 8;

/**
 * Asks once per workspace whether its own extensions may run (EXTENSIONS.md
 * "Trust"). Keyboard only: y trusts, n or Esc does not; Ctrl-C leaves
 * without answering. Keys typed just before it appeared were meant for the
 * editor and are not taken for an answer.
 */
export function TrustPrompt({pending, onLeave}: {pending: PendingTrust; onLeave(): void}) {
	const {workspace, extensions, rememberedIn} = pending.question;
	const shownAt = useRef(Date.now());
	useInput((input, key) => {
		if (key.ctrl && input === 'c') {
			onLeave();
			return;
		}

		if (key.escape) {
			pending.answer(false);
			return;
		}

		if (Date.now() - shownAt.current < TYPEAHEAD_GUARD_MS) return;
		if (input === 'y') pending.answer(true);
		else if (input === 'n') pending.answer(false);
	});

	const listed = extensions.slice(0, MAX_LISTED_EXTENSIONS);
	const more = extensions.length - listed.length;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
			<Text bold color="yellow">
				Trust this workspace? <Text color="white">{workspace}</Text>
			</Text>
			<Text>Its own {extensions.length === 1 ? 'extension' : 'extensions'} would run inside i, with your rights:</Text>
			{listed.map(path => (
				<Text key={path}> {path}</Text>
			))}
			{more > 0 ? <Text dimColor> … and {more} more</Text> : null}
			<Text>
				[y] trust and load {extensions.length === 1 ? 'it' : 'them'} [n] do not trust <Text dimColor>Esc do not trust</Text>
			</Text>
			<Text dimColor>Remembered for this workspace. To change it later, delete {rememberedIn} to be asked again, or pass --trust-project for one run.</Text>
		</Box>
	);
}
