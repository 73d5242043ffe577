import {parseDomainEntry} from './domain-match.js';

/** Why `entry` cannot stand in an `allowedDomains` list (the shell sandbox's, an MCP server's), in words; null when it can. The proxy's own rule (domain-match.ts). */
export function domainEntryProblem(entry: string): string | null {
	const parsed = parseDomainEntry(entry);
	return typeof parsed === 'string' ? parsed : null;
}
