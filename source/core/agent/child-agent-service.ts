import {RuntimeActionError, type RuntimeServices, type ToolInvocation} from '../extensions/runtime-link.js';
import type {ChildAgents} from './child-agents.js';
import {readChildRequest} from '../child-request.js';

/**
 * `api.runtime.childAgent(request, ctx)` (spec/extensions.md §3): `start` needs the
 * live invocation of one of the calling extension's own tools, made by the
 * parent (not by a child); `poll`, `cancel` and `dispose` need only the
 * owning extension, so a child started in one call can be polled from
 * another, a command or an event handler.
 */
export function childAgentService(children: ChildAgents): NonNullable<RuntimeServices['childAgent']> {
	return async (extension, request, invocation) => {
		const parsed = readChildRequest(request, extension);
		switch (parsed.op) {
			case 'start': {
				const bound = checkBinding(extension, invocation);
				const task = await children.start(extension, parsed.start, {
					signal: bound.signal,
					stale: () => (bound.ended ? 'the tool call it belongs to ended while the child was being set up' : null),
				});
				return {childId: task.id, sessionId: task.sessionId, status: task.status};
			}

			case 'poll': {
				return children.poll(extension, parsed.childId);
			}

			case 'cancel': {
				const task = children.cancel(extension, parsed.childId);
				return {childId: task.id, status: task.status};
			}

			case 'dispose': {
				children.dispose(extension, parsed.childId);
				return {childId: parsed.childId, disposed: true};
			}
		}
	};
}

/** The invocation a start is bound to, or why it cannot start: `invalid_argument` for no or a wrong ctx, `stale` for a call that ended or was cancelled. */
function checkBinding(extension: string, invocation: ToolInvocation | undefined): ToolInvocation {
	const where = `extension ${extension}: start`;
	if (!invocation) {
		throw new RuntimeActionError(
			'childAgent',
			'invalid_argument',
			`${where} needs the ctx of the tool call it belongs to as its second argument (api.runtime.childAgent(request, ctx) inside execute); a call from register, a command or an event handler, or with any other object, cannot start a child`,
		);
	}

	if (invocation.extension !== extension)
		throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: the ctx belongs to a tool of extension ${invocation.extension}, not to one of this extension's`);
	if (invocation.child !== undefined) {
		throw new RuntimeActionError('childAgent', 'invalid_argument', `${where}: the tool call was made by child agent ${invocation.child}; a child's tool calls cannot start children`);
	}

	if (invocation.signal.aborted) throw new RuntimeActionError('childAgent', 'stale', `${where}: the tool call ${invocation.toolCallId} was cancelled; only poll, cancel and dispose still work`);
	if (invocation.ended) throw new RuntimeActionError('childAgent', 'stale', `${where}: the tool call ${invocation.toolCallId} has ended; only poll, cancel and dispose still work`);
	return invocation;
}
