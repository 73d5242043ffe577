import {useRef} from 'react';
import {Box, Text, useInput} from 'ink';
import type {PendingTrust} from '../source/tui/brokers/trust-broker.js';
import {TYPEAHEAD_GUARD_MS} from './Approval.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** Extensions listed by path at most; the rest are counted. */
export const MAX_LISTED_EXTENSIONS = 8;

/**
 * Asks once per workspace whether its own extensions may run, its MCP
 * servers start and its permission allow rules count (spec/extensions.md §8,
 * docs/approvals.md). Keyboard only: y trusts, n or Esc does not; Ctrl-C leaves
 * without answering. Keys typed just before it appeared were meant for the
 * editor and are not taken for an answer.
 */
export function TrustPrompt({pending, onLeave}: {pending: PendingTrust; onLeave(): void}) {
	const {workspace, extensions, mcpServers, allowRules, sandboxSettings, modelEndpoints, rememberedIn} = pending.question;
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
	const servers = mcpServers.slice(0, MAX_LISTED_EXTENSIONS);
	const moreServers = mcpServers.length - servers.length;
	const rules = allowRules.slice(0, MAX_LISTED_EXTENSIONS);
	const moreRules = allowRules.length - rules.length;
	const loosened = sandboxSettings.slice(0, MAX_LISTED_EXTENSIONS);
	const moreLoosened = sandboxSettings.length - loosened.length;
	const endpoints = modelEndpoints.slice(0, MAX_LISTED_EXTENSIONS);
	const moreEndpoints = modelEndpoints.length - endpoints.length;
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={colour('warning')} paddingX={1}>
			<Text bold color={colour('warning')}>
				Trust this workspace? <Text color={colour('emphasis')}>{workspace}</Text>
			</Text>
			{extensions.length > 0 ? <Text>Its own {extensions.length === 1 ? 'extension' : 'extensions'} would run inside i, with your rights:</Text> : null}
			{listed.map(path => (
				<Text key={path}> {path}</Text>
			))}
			{more > 0 ? <Text dimColor> … and {more} more</Text> : null}
			{mcpServers.length > 0 ? <Text>Its MCP {mcpServers.length === 1 ? 'server' : 'servers'} would start as programs of yours, with your rights:</Text> : null}
			{servers.map(server => (
				<Text key={server}> {server}</Text>
			))}
			{moreServers > 0 ? <Text dimColor> … and {moreServers} more</Text> : null}
			{allowRules.length > 0 ? <Text>Its permission {allowRules.length === 1 ? 'rule' : 'rules'} would let tool calls run without asking you:</Text> : null}
			{rules.map(rule => (
				<Text key={rule}> allow {rule}</Text>
			))}
			{moreRules > 0 ? <Text dimColor> … and {moreRules} more</Text> : null}
			{sandboxSettings.length > 0 ? <Text>Its sandbox {sandboxSettings.length === 1 ? 'setting' : 'settings'} would let the model's commands do more:</Text> : null}
			{loosened.map(setting => (
				<Text key={setting}> sandbox.{setting}</Text>
			))}
			{moreLoosened > 0 ? <Text dimColor> … and {moreLoosened} more</Text> : null}
			{modelEndpoints.length > 0 ? <Text>Its models.json would send your requests, with your key for the provider, elsewhere:</Text> : null}
			{endpoints.map(endpoint => (
				<Text key={endpoint}> {endpoint}</Text>
			))}
			{moreEndpoints > 0 ? <Text dimColor> … and {moreEndpoints} more</Text> : null}
			<Text>
				[y] {yesWords(extensions.length, mcpServers.length, allowRules.length + sandboxSettings.length + modelEndpoints.length)} [n] do not trust <Text dimColor>Esc do not trust</Text>
			</Text>
			<Text dimColor>Remembered for this workspace. To change it later, delete {rememberedIn} to be asked again, or pass --trust-project for one run.</Text>
		</Box>
	);
}

/** What y does: load the extensions, start the servers, or both; for a project with neither, let its allow rules and sandbox settings count. */
function yesWords(extensions: number, servers: number, rules: number): string {
	if (extensions === 0 && servers === 0) return `trust and use ${rules === 1 ? 'it' : 'them'}`;
	if (servers === 0) return `trust and load ${extensions === 1 ? 'it' : 'them'}`;
	if (extensions === 0) return `trust and start ${servers === 1 ? 'it' : 'them'}`;
	return 'trust, load and start them';
}
