/** The lifecycle events of spec/platform.md §6, in the order a turn raises them. */
export const lifecycleEvents = [
	'session_load',
	'system_prompt',
	'user_input',
	'before_turn',
	'context_budget',
	'compact_plan',
	'before_compact',
	'after_compact',
	'before_compact_commit',
	'before_request',
	'request_retry',
	'after_response',
	'before_tool',
	'tool_approval',
	'after_tool',
	'before_save',
	'after_save',
	'finish',
] as const;

export type LifecycleEvent = (typeof lifecycleEvents)[number];

/** The event an external tool call is sent as; not a lifecycle event. */
export const toolEvent = 'tool';
/** The event a provider worker is called with. */
export const providerEvent = 'provider';
