import type {Protocol} from './types.js';

const chat = ['model', 'messages', 'stream', 'stream_options', 'tools', 'max_tokens', 'max_completion_tokens'];

/** Top-level body fields each adapter owns; `extra_body` may not set them. */
export const reservedBodyFields: Record<Protocol, readonly string[]> = {
	openai: chat,
	deepseek: chat,
	anthropic: ['model', 'messages', 'system', 'stream', 'tools', 'max_tokens'],
	responses: ['model', 'input', 'instructions', 'stream', 'tools', 'max_output_tokens'],
};
