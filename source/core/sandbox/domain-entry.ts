/** A well-formed domain entry: a name or `*.name`, an IP literal, each with an optional `:port`. */
const domainEntry = /^(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

/** What an `allowedDomains` entry looks like, for the message that refuses one. */
export const DOMAIN_ENTRY_FORM = 'a name such as example.com or *.example.com, or an IP address, each with an optional :port';

/** Whether `entry` may stand in an `allowedDomains` list (the shell sandbox's, an MCP server's). */
export function isDomainEntry(entry: string): boolean {
	return domainEntry.test(entry);
}
