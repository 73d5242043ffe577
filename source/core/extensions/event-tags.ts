/**
 * The 36 event tags of spec/extensions.md §5 (the reference SDK's `EventTag`, by name),
 * each with its class from that section: what a handler's answer
 * does and what a throw or a timeout means. A module of its own, so checking
 * a registration loads nothing else.
 */
export const eventTags = [
	'ProjectTrust',
	'ResourcesDiscover',
	'SessionStart',
	'SessionInfoChanged',
	'SessionBeforeSwitch',
	'SessionBeforeFork',
	'SessionBeforeCompact',
	'SessionCompact',
	'SessionShutdown',
	'SessionBeforeTree',
	'SessionTree',
	'Context',
	'BeforeProviderRequest',
	'BeforeProviderHeaders',
	'AfterProviderResponse',
	'BeforeAgentStart',
	'AgentStart',
	'AgentEnd',
	'AgentSettled',
	'TurnStart',
	'TurnEnd',
	'MessageStart',
	'MessageUpdate',
	'MessageEnd',
	'ToolExecutionStart',
	'ToolExecutionUpdate',
	'ToolExecutionEnd',
	'ModelSelect',
	'ThinkingLevelSelect',
	'ToolCall',
	'ToolResult',
	'UserBash',
	'Input',
	'BeforeTuiStart',
	'UiPromptStart',
	'UiPromptEnd',
] as const;

export type EventTag = (typeof eventTags)[number];

/**
 * - veto: `ABORT` stops start-up; a throw or timeout is skipped (a timeout is no veto).
 * - advisory: `ABORT` is logged, nothing stops.
 * - gate: any block wins, a gate never turns a deny into an allow; on failure see `gateFailure`.
 * - transform: chained in order, each sees the previous answer; a failure keeps the previous value.
 * - observe: the answer is ignored, a failure logged; delivered on a bounded queue that never blocks the loop.
 */
export type EventClass = 'veto' | 'advisory' | 'gate' | 'transform' | 'observe';

const classes: Partial<Record<EventTag, EventClass>> = {
	BeforeTuiStart: 'veto',
	SessionStart: 'advisory',
	SessionShutdown: 'advisory',
	ToolCall: 'gate',
	SessionBeforeSwitch: 'gate',
	SessionBeforeFork: 'gate',
	SessionBeforeCompact: 'gate',
	SessionBeforeTree: 'gate',
	ProjectTrust: 'gate',
	Input: 'transform',
	Context: 'transform',
	BeforeProviderRequest: 'transform',
	BeforeProviderHeaders: 'transform',
	ToolResult: 'transform',
	MessageEnd: 'transform',
	UserBash: 'transform',
};

export function eventClass(tag: EventTag): EventClass {
	return classes[tag] ?? 'observe';
}

/**
 * What a failing (throwing or timed-out) gate handler decides: `ToolCall`
 * fails closed (blocked), `SessionBefore*` proceed, `ProjectTrust` stays
 * undecided.
 */
export function gateFailure(tag: EventTag): 'block' | 'proceed' | 'undecided' {
	if (tag === 'ToolCall') return 'block';
	if (tag === 'ProjectTrust') return 'undecided';
	return 'proceed';
}

/** spec/extensions.md §5: 5 s for BeforeTuiStart, 15 s for SessionShutdown, 10 s for the rest. */
export const BEFORE_TUI_START_TIMEOUT_MS = 5000;
export const SESSION_SHUTDOWN_TIMEOUT_MS = 15_000;
export const EVENT_TIMEOUT_MS = 10_000;

export function eventTimeoutMs(tag: EventTag): number {
	if (tag === 'BeforeTuiStart') return BEFORE_TUI_START_TIMEOUT_MS;
	if (tag === 'SessionShutdown') return SESSION_SHUTDOWN_TIMEOUT_MS;
	return EVENT_TIMEOUT_MS;
}

export function isEventTag(value: unknown): value is EventTag {
	return typeof value === 'string' && (eventTags as readonly string[]).includes(value);
}
