import {UsageError} from '../errors.js';
import type {Protocol} from '../providers/types.js';

const chat = ['model', 'messages', 'stream', 'stream_options', 'tools', 'max_tokens', 'max_completion_tokens'];

/** Top-level body fields each adapter owns; `extra_body` may not set them. */
export const reservedBodyFields: Record<Protocol, readonly string[]> = {
	openai: chat,
	deepseek: chat,
	anthropic: ['model', 'messages', 'system', 'stream', 'tools', 'max_tokens'],
	responses: ['model', 'input', 'instructions', 'stream', 'tools', 'max_output_tokens'],
};

/** Refuses an `extra_body` that sets what the protocol's adapter owns: an error, never a silent override; `where` names the config or the choice. */
export function checkExtraBody(protocol: Protocol, extraBody: Record<string, unknown>, where: string): void {
	const reserved = reservedBodyFields[protocol];
	const clashes = Object.keys(extraBody).filter(key => reserved.includes(key));
	if (clashes.length > 0) throw new UsageError(`${where}: field "extra_body" may not set ${clashes.map(key => `"${key}"`).join(', ')}: the ${protocol} adapter owns ${reserved.join(', ')}`);
}
