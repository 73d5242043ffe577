import type {ReadResourceResult} from '@modelcontextprotocol/sdk/types.js';
import {formatBytes} from '../tools/format.js';
import type {UserContent} from '../messages.js';
import type {McpHandle} from './mcp-handle.js';

/** One resource's text in a message; longer is cut, saying so (the whole message still has to fit the model's budget). */
export const MAX_RESOURCE_CHARS = 100_000;
/** Resources one message may attach. */
export const MAX_RESOURCES_PER_MESSAGE = 16;

/** `@server:uri`: at the start or after a blank, the server a configured name, the URI up to the next blank. */
const mentionPattern = /(?<=^|\s)@([A-Za-z0-9_-]+):(\S+)/g;

export interface ResourceMention {
	server: string;
	uri: string;
	/** As typed: `@server:uri`. */
	text: string;
}

/** The `@server:uri` mentions of `text` whose server is one of `servers` (a file mention `@src/a.ts` is no server's). */
export function findResourceMentions(text: string, servers: readonly string[]): ResourceMention[] {
	const found: ResourceMention[] = [];
	for (const match of text.matchAll(mentionPattern)) {
		const [whole, server, uri] = match;
		// A sentence's full stop or comma after the URI is not part of it.
		const trimmed = uri!.replace(/[.,;:!?)\]]+$/, '');
		if (servers.includes(server!) && trimmed.length > 0 && !found.some(mention => mention.server === server && mention.uri === trimmed))
			found.push({server: server!, uri: trimmed, text: whole.slice(0, whole.length - (uri!.length - trimmed.length))});
	}

	return found;
}

/** Whether a message may name an `@server:uri` resource (cheap, before the servers are asked). */
export function mayMentionResource(text: string): boolean {
	return /(?:^|\s)@[A-Za-z0-9_-]+:\S/.test(text);
}

/**
 * A headless head's message with its resources attached (`-p`, line mode):
 * the servers are started when the message may name one, and each problem
 * goes to `warn`.
 */
export async function withResources(text: string, mcp: McpHandle, signal: AbortSignal, warn: (message: string) => void): Promise<string> {
	if (!mayMentionResource(text) || (await mcp.ready) === null) return text;
	const attached = await attachResources(text, mcp, signal);
	for (const problem of attached.problems) warn(problem);
	return attached.text;
}

/**
 * A prompt's user content (attach-mentions.ts: the typed text, then the
 * files its `@path` mentions attached) with the resources the typed text
 * names read into that text. After the file mentions are found, so a
 * resource's own text is never taken for one.
 */
export async function contentWithResources(content: UserContent, typed: string, mcp: McpHandle, signal: AbortSignal, warn: (message: string) => void): Promise<UserContent> {
	const withText = await withResources(typed, mcp, signal, warn);
	if (withText === typed) return content;
	if (typeof content === 'string') return withText;
	const [first, ...rest] = content;
	return first?.type === 'text' ? [{...first, text: withText}, ...rest] : content;
}

export interface AttachedResources {
	/** The message with each resource's contents after it; `text` itself when it mentions none. */
	text: string;
	/** One line per mention that could not be read (unknown server, not running, an error), for the person. */
	problems: string[];
}

/**
 * Reads each `@server:uri` of a message from its server and appends the
 * contents to the message, for the model; the mention stays where it was
 * typed. A server still starting is waited for (this message needs it, up
 * to its own timeout). The small function the `@` picker calls once a
 * resource is chosen: `attachResources(text, mcp)`.
 */
export async function attachResources(text: string, mcp: McpHandle, signal?: AbortSignal): Promise<AttachedResources> {
	if (!text.includes('@')) return {text, problems: []};
	const servers = await mcp.ready;
	if (!servers) return {text, problems: []};
	const mentions = findResourceMentions(text, servers.names);
	if (mentions.length === 0) return {text, problems: []};
	const problems: string[] = [];
	if (mentions.length > MAX_RESOURCES_PER_MESSAGE) problems.push(`${mentions.length} resources were mentioned; the first ${MAX_RESOURCES_PER_MESSAGE} are attached`);
	const blocks: string[] = [];
	for (const mention of mentions.slice(0, MAX_RESOURCES_PER_MESSAGE)) {
		const connection = servers.connection(mention.server)!;
		await connection.start();
		try {
			blocks.push(describeContents(mention, await connection.readResource(mention.uri, signal)));
		} catch (error) {
			if (signal?.aborted) throw signal.reason;
			problems.push(`${mention.text} was not attached: ${(error as Error).message}`);
		}
	}

	return {text: blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`, problems};
}

function describeContents(mention: ResourceMention, result: ReadResourceResult): string {
	const parts = result.contents.map(content => {
		if ('text' in content && typeof content.text === 'string') {
			const cut = content.text.length > MAX_RESOURCE_CHARS;
			return `${cut ? content.text.slice(0, MAX_RESOURCE_CHARS) : content.text}${cut ? `\n[cut: the first ${MAX_RESOURCE_CHARS} of ${content.text.length} characters]` : ''}`;
		}

		const bytes = 'blob' in content && typeof content.blob === 'string' ? Math.floor((content.blob.length * 3) / 4) : 0;
		return `[${content.uri}: ${content.mimeType ?? 'binary data'}, ${formatBytes(bytes)}, not attached as text]`;
	});
	return `<resource server="${mention.server}" uri="${mention.uri.replaceAll('"', '&quot;')}">\n${parts.join('\n')}\n</resource>`;
}
