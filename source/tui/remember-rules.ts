import path from 'node:path';
import type {RunPermissions} from '../core/session/run-permissions.js';
import type {RememberRules} from './brokers/approval-broker.js';
import {shownExact} from './shown-text.js';

/**
 * The approval's "always, for this project" on the agent's rules: the
 * narrowest rule for the call, written as an allow rule to the project's
 * `.i/settings.local.json`, with a notice that names the rule and the file.
 */
export function rememberRules(permissions: RunPermissions, notice: (level: 'info' | 'error', text: string) => void): RememberRules {
	return {
		ruleFor: async request => permissions.ruleFor(request),
		async remember(rule) {
			try {
				const change = await permissions.add('allow', rule, 'local');
				const file = path.relative(permissions.workspace, change.file);
				notice('info', [`Allowed from now on in this project: ${shownExact(rule)} (${file}; /permissions remove ${shownExact(rule)} takes it back)`, ...change.warnings].join('\n'));
			} catch (error) {
				notice('error', `the rule ${shownExact(rule)} could not be written, so this call alone was allowed: ${(error as Error).message}`);
			}
		},
	};
}
