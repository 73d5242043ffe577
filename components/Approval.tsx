import {useEffect, useRef, useState} from 'react';
import {Box, Text, useInput} from 'ink';
import type {ApprovalChoice, PendingApproval} from '../source/tui/brokers/approval-broker.js';
import {ApprovalDetail} from './ApprovalDetail.js';
import {ReasonField} from './ReasonField.js';

/** Keys typed this soon after the question appears were meant for something else. */
export const TYPEAHEAD_GUARD_MS = 300;

const options = ['once', 'always', 'deny'] as const;

/**
 * Asks whether a tool may run, naming the tool and whose it is (native, an
 * official module, an extension, an MCP server, a plugin worker); what it
 * shows was made printable and its invisible characters marked by the broker.
 * Keyboard only: y allows once, a allows the tool for the rest of the
 * session, n asks for an optional reason then denies, Esc denies. Enter
 * alone never allows: it only confirms an option the person moved to with
 * the arrow keys.
 */
export function Approval({pending, maxDetailLines}: {pending: PendingApproval; maxDetailLines?: number}) {
	const {request} = pending;
	const shownAt = useRef(Date.now());
	const [selected, setSelected] = useState<number | null>(null);
	const [reasoning, setReasoning] = useState(false);
	// biome-ignore lint/correctness/useExhaustiveDependencies: pending is the trigger, not an input: each new approval starts unselected, without the reason field.
	useEffect(() => {
		shownAt.current = Date.now();
		setSelected(null);
		setReasoning(false);
	}, [pending]);

	const answer = (choice: ApprovalChoice) => pending.answer(choice);
	const choose = (option: (typeof options)[number]) => {
		if (option === 'deny') setReasoning(true);
		else answer({kind: option});
	};

	useInput(
		(input, key) => {
			if (key.escape) {
				answer({kind: 'deny', reason: ''});
				return;
			}

			const early = Date.now() - shownAt.current < TYPEAHEAD_GUARD_MS;
			if (key.leftArrow || key.upArrow) setSelected(current => (current === null ? 0 : Math.max(0, current - 1)));
			else if (key.rightArrow || key.downArrow || key.tab) setSelected(current => (current === null ? 0 : Math.min(options.length - 1, current + 1)));
			else if (key.return && selected !== null) choose(options[selected]!);
			else if (early) return;
			else if (input === 'y') choose('once');
			else if (input === 'a') choose('always');
			else if (input === 'n') choose('deny');
		},
		{isActive: !reasoning},
	);

	const label = (index: number, text: string) => (
		<Text inverse={selected === index} color={selected === index ? 'cyan' : undefined}>
			{text}
		</Text>
	);

	return (
		<Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
			<Text bold color="yellow">
				Allow? <Text color="white">{request.ask.title}</Text>
			</Text>
			<Text dimColor>
				tool {request.name} · {request.owner}
			</Text>
			<ApprovalDetail detail={request.ask.detail} maxLines={maxDetailLines} />
			{reasoning ? (
				<Box>
					<Text>Reason for the model (optional, Enter to deny, Esc to deny without one): </Text>
					<ReasonField onSubmit={value => answer({kind: 'deny', reason: value})} onCancel={() => answer({kind: 'deny', reason: ''})} />
				</Box>
			) : (
				<Text>
					{label(0, '[y] allow once')} {label(1, `[a] allow ${request.name} for this session`)} {label(2, '[n] deny…')} <Text dimColor>Esc deny</Text>
				</Text>
			)}
		</Box>
	);
}
