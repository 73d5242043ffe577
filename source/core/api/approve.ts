import {errorMessage} from '../errors.js';
import type {AskPerson} from '../agent/approval-gate.js';
import type {ApprovalRequest} from './types.js';

/** Without an approve callback nobody can be asked: the call is denied, and the model and the events say why. */
const NO_CALLBACK = 'approval is needed and this session has no approve callback; pass approve to openSession, or yolo: true to allow tools without asking';

/**
 * The approval gate's question as the API's `approve` callback: true
 * allows the call; false, a failing callback or none denies it.
 */
export function approveAsker(approve: ((request: ApprovalRequest) => boolean | Promise<boolean>) | undefined): AskPerson {
	if (!approve) return async () => ({decision: 'deny', by: 'no_terminal', reason: NO_CALLBACK});
	return async request => {
		const asked: ApprovalRequest = {
			id: request.id,
			name: request.name,
			arguments: request.arguments,
			owner: request.owner,
			title: request.ask.title,
			detail: request.ask.detail,
			external: request.external,
		};
		try {
			// Only `true` allows: a truthy string or object from a careless callback is no approval.
			return (await approve(asked)) === true ? {decision: 'allow', by: 'user', reason: null} : {decision: 'deny', by: 'user', reason: 'denied by the approve callback'};
		} catch (error) {
			return {decision: 'deny', by: 'user', reason: `the approve callback failed: ${errorMessage(error)}`};
		}
	};
}
