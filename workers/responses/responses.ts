import * as z from 'zod/mini';
import '../../source/core/zod-english.js';
import {messageSchema} from '../../source/core/history/message-schema.js';
import {UsageError} from '../../source/core/errors.js';
import type {AssistantMessage} from '../../source/core/messages.js';
import {ReplayMemory} from './responses-replay.js';
import {checkReply} from './responses-reply.js';
import {toResponsesRequest} from './responses-request.js';
import type {WorkerDefinition} from '../serve/serve.js';
import {parseHookData} from '../serve/hook-data.js';

const requestSchema = z.looseObject({url: z.string(), protocol: z.string(), body: z.record(z.string(), z.unknown())});
const responseSchema = z.looseObject({
	response: z.looseObject({protocol: z.string(), message: messageSchema, finish_reason: z.optional(z.nullable(z.string()))}),
});

/**
 * `i --runtime worker responses`: the Responses wire over a Chat Completions
 * config (spec/platform.md §1, §6). `before_request` turns an `openai` request into the
 * request the native `responses` adapter would send for the same history and
 * answers `wire: "responses"`, so the core reads the reply with the Responses
 * stream assembler; it also says `protocol: "responses"` to the hooks after
 * it (cache preparation runs after this conversion). Requests of other
 * protocols pass unchanged, so `full` works with any provider.
 * `after_response` refuses a Responses reply that is incomplete or empty
 * (the cache observes before it, so a refused reply is still counted) and
 * remembers its output items, which later requests replay verbatim.
 */
export function createWorker(args: string[]): WorkerDefinition {
	if (args.length > 0) throw new UsageError(`worker responses takes no options (got ${args.map(arg => JSON.stringify(arg)).join(' ')})`);
	const memory = new ReplayMemory();
	return {
		name: 'responses',
		hooks: {
			async before_request(data) {
				const request = parseHookData('responses module: before_request', requestSchema, data);
				if (request.protocol !== 'openai') return data;
				const {url, body} = toResponsesRequest(request.url, request.body, memory);
				return {...data, url, body, protocol: 'responses', wire: 'responses'};
			},
			async after_response(data) {
				const {protocol, message, finish_reason: finishReason} = parseHookData('responses module: after_response', responseSchema, data).response;
				if (protocol !== 'responses') return data;
				if (message.role !== 'assistant') throw new Error(`responses module: the response message is a ${message.role} message, not the assistant's`);
				const reply = message as AssistantMessage;
				checkReply(reply, finishReason ?? null);
				memory.remember(reply);
				return data;
			},
		},
	};
}
