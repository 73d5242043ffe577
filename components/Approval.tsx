import {useEffect, useMemo, useRef, useState} from 'react';
import {Box, Text, useInput, useStdout, type Key} from 'ink';
import type {ApprovalChoice, PendingApproval} from '../source/tui/brokers/approval-broker.js';
import {detailRows} from '../source/tui/detail-rows.js';
import {shownExact} from '../source/tui/shown-text.js';
import {ApprovalDetail, DETAIL_INSET_COLUMNS, MAX_DETAIL_LINES} from './ApprovalDetail.js';
import {ReasonField} from './ReasonField.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** Keys typed this soon after the question appears were meant for something else. */
export const TYPEAHEAD_GUARD_MS = 300;

type Option = 'once' | 'always' | 'remember' | 'deny';

export interface ApprovalProps {
	pending: PendingApproval;
	/** Rows of the detail shown at once (the terminal's height allowing). */
	maxDetailLines?: number;
	/** The terminal's width; by default stdout's. */
	width?: number;
	/** Shows the whole detail in the person's pager (p); absent: no such key. */
	onPager?(detail: string): void;
}

/**
 * Asks whether a tool may run, naming the tool and whose it is (native, an
 * official module, an extension, an MCP server, a plugin worker); what it
 * shows was made printable and its invisible characters marked by the broker.
 * Keyboard only: y allows once, a allows the tool for the rest of the
 * session, r (when the broker found a rule that fits) allows it and writes
 * that allow rule to the project's settings, n asks for an optional reason
 * then denies, Esc denies. Enter
 * alone never allows: it only confirms an option the person moved to with
 * ← → or Tab. The whole detail can be read before answering: ↑ ↓ PgUp PgDn
 * Home End scroll it, p opens it in a pager.
 */
export function Approval({pending, maxDetailLines = MAX_DETAIL_LINES, width, onPager}: ApprovalProps) {
	const {request, rule} = pending;
	const options: readonly Option[] = rule === null ? ['once', 'always', 'deny'] : ['once', 'always', 'remember', 'deny'];
	const {stdout} = useStdout();
	const shownAt = useRef(Date.now());
	const [selected, setSelected] = useState<number | null>(null);
	const [reasoning, setReasoning] = useState(false);
	const [top, setTop] = useState(0);
	const detail = useMemo(() => shownExact(request.ask.detail), [request]);
	const columns = (width ?? stdout.columns) || 80;
	const rows = useMemo(() => detailRows(detail, columns - DETAIL_INSET_COLUMNS), [detail, columns]);
	const height = Math.max(1, maxDetailLines);
	const lastTop = Math.max(0, rows.length - height);
	// biome-ignore lint/correctness/useExhaustiveDependencies: pending is the trigger, not an input: each new approval starts unselected, at its first line, without the reason field.
	useEffect(() => {
		shownAt.current = Date.now();
		setSelected(null);
		setReasoning(false);
		setTop(0);
	}, [pending]);

	/** The scrolling keys: true when `key` was one. */
	const scroll = (key: Key): boolean => {
		const by = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -height : key.pageDown ? height : key.home ? -rows.length : key.end ? rows.length : 0;
		if (by === 0) return false;
		setTop(current => Math.min(lastTop, Math.max(0, Math.min(current, lastTop) + by)));
		return true;
	};

	const answer = (choice: ApprovalChoice) => pending.answer(choice);
	const choose = (option: Option) => {
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
			if (scroll(key)) return;
			if (key.leftArrow) setSelected(current => (current === null ? 0 : Math.max(0, current - 1)));
			else if (key.rightArrow || key.tab) setSelected(current => (current === null ? 0 : Math.min(options.length - 1, current + 1)));
			else if (key.return && selected !== null) choose(options[selected]!);
			else if (early) return;
			else if (input === 'y') choose('once');
			else if (input === 'a') choose('always');
			else if (input === 'r' && rule !== null) choose('remember');
			else if (input === 'n') choose('deny');
			else if (input === 'p' && onPager) onPager(detail);
		},
		{isActive: !reasoning},
	);

	const label = (index: number, text: string) => (
		<Text inverse={selected === index} color={selected === index ? colour('accent') : undefined}>
			{text}
		</Text>
	);

	return (
		<Box flexDirection="column" borderStyle="round" borderColor={colour('warning')} paddingX={1}>
			<Text bold color={colour('warning')}>
				Allow? <Text color={colour('emphasis')}>{shownExact(request.ask.title)}</Text>
			</Text>
			<Text dimColor>
				tool {shownExact(request.name)} · {shownExact(request.owner)}
			</Text>
			<ApprovalDetail view={{rows, lines: rows.at(-1)?.line ?? 0, top: Math.min(top, lastTop), height}} pager={onPager !== undefined} />
			{reasoning ? (
				<Box>
					<Text>Reason for the model (optional, Enter to deny, Esc to deny without one): </Text>
					<ReasonField onSubmit={value => answer({kind: 'deny', reason: value})} onCancel={() => answer({kind: 'deny', reason: ''})} />
				</Box>
			) : (
				<Text>
					{label(0, '[y] allow once')} {label(1, `[a] allow ${request.name}${request.ask.outsideSandbox ? ' outside the sandbox' : ''} for this session`)}{' '}
					{rule === null ? null : <>{label(2, `[r] always, for this project: ${shownExact(rule)}`)} </>}
					{label(options.length - 1, '[n] deny…')} <Text dimColor>Esc deny</Text>
				</Text>
			)}
		</Box>
	);
}
