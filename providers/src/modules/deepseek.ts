import {model, type ProviderModule} from './module.js';

const id = 'deepseek';
/** "1M" and "MAXIMUM: 384K" on the pricing page, as written there. */
const WINDOW = 1_000_000;
const MAX_OUTPUT = 384_000;
/** Dollars per million tokens; a cache hit is `cacheRead`, a miss is billed as input, so a cache write costs nothing more. */
const FLASH_COST = {input: 0.14, output: 0.28, cacheRead: 0.0028, cacheWrite: 0};
const PRO_COST = {input: 0.435, output: 0.87, cacheRead: 0.003625, cacheWrite: 0};
const THINKING_OFF = {thinking: {type: 'disabled'}};
const THINKING_ON = {thinking: {type: 'enabled'}};

/**
 * DeepSeek (api.deepseek.com), on the host's `deepseek` wire: its
 * reasoning-replay rule and cache-hit usage are the host's. Thinking is on
 * by default for both models and `extra_body: {"thinking": {"type":
 * "disabled"}}` turns it off; the two old names are aliases that say so and
 * send `deepseek-flash` with thinking off (`deepseek-chat`) or on
 * (`deepseek-reasoner`).
 */
export const deepseek: ProviderModule = {
	id,
	baseUrl: 'https://api.deepseek.com',
	apiKeyEnv: 'DEEPSEEK_API_KEY',
	requiresAuth: true,
	source: {
		url: 'https://api-docs.deepseek.com/quick_start/pricing',
		read: '2026-12-07',
		note: 'the off-peak band: DeepSeek bills twice these prices in its peak hours (09:00–12:00 and 14:00–18:00 Beijing time), which one price per field cannot hold; deepseek-flash as issue 46 quotes the page (the stored copy of the page, of 2026-07-04, lists it as deepseek-v4-flash at the same prices)',
	},
	models: [
		model(id, {id: 'deepseek-flash', name: 'DeepSeek V4.1 Flash, 1M (thinking by default)', contextWindow: WINDOW, maxTokens: MAX_OUTPUT, input: ['text', 'image'], reasoning: true, cost: FLASH_COST}),
		model(id, {id: 'deepseek-v4-pro', name: 'DeepSeek V4 Pro, 1M (thinking by default)', contextWindow: WINDOW, maxTokens: MAX_OUTPUT, input: ['text'], reasoning: true, cost: PRO_COST}),
		model(id, {
			id: 'deepseek-chat',
			name: 'Old name (retired 2026-07-24): sent as deepseek-flash, thinking off',
			contextWindow: WINDOW,
			maxTokens: MAX_OUTPUT,
			input: ['text', 'image'],
			reasoning: false,
			cost: FLASH_COST,
		}),
		model(id, {
			id: 'deepseek-reasoner',
			name: 'Old name (retired 2026-07-24): sent as deepseek-flash, thinking on',
			contextWindow: WINDOW,
			maxTokens: MAX_OUTPUT,
			input: ['text', 'image'],
			reasoning: true,
			cost: FLASH_COST,
		}),
	],
	wire: {protocol: 'deepseek'},
	aliases: {
		'deepseek-chat': {model: 'deepseek-flash', extra: THINKING_OFF},
		'deepseek-reasoner': {model: 'deepseek-flash', extra: THINKING_ON},
	},
};
