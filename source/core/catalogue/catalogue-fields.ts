import * as z from 'zod/mini';
import '../zod-english.js';
import {apiStylePattern, hasCredentials, isHttpUrl, MAX_API_STYLE_LENGTH, MAX_PROVIDER_ID_LENGTH, providerIdPattern} from './provider-id.js';

/**
 * The catalogue's fields as `declare({providers})` and models.json spell
 * them, checked by the same rules. Its limits, i's own numbers
 * (spec/extensions.md §11): a catalogue is read by people and shown in lists,
 * so ids and names are short single lines, and a provider lists a bounded
 * number of models.
 */

/** A model id is the server's name for it, `/` allowed (OpenRouter's `deepseek/deepseek-chat`). */
export const MAX_MODEL_ID_LENGTH = 256;
export const MAX_MODEL_NAME_LENGTH = 200;
/** Models one provider lists. */
export const MAX_MODELS_PER_PROVIDER = 1024;
/** Providers one declaration or one models.json lists. */
export const MAX_CATALOGUE_PROVIDERS = 64;
/** Extra headers one models.json provider sets. */
export const MAX_HEADERS = 64;
export const MAX_HEADER_VALUE_LENGTH = 8192;
/** A price above this many dollars per million tokens is a typo (no model costs $100k). */
export const MAX_PRICE = 100_000;
/** A context window or output cap above this is a typo. */
export const MAX_TOKEN_COUNT = 100_000_000;

export const providerIdSchema = z.string().check(z.regex(providerIdPattern, `must be 1–${MAX_PROVIDER_ID_LENGTH} of lower-case a-z, 0-9, ".", "_" or "-", starting with a letter or digit`));
export const modelIdSchema = z.string().check(z.regex(new RegExp(`^[\\x21-\\x7e]{1,${MAX_MODEL_ID_LENGTH}}$`), `must be 1–${MAX_MODEL_ID_LENGTH} printable ASCII characters without spaces`));
export const modelNameSchema = z
	.string()
	.check(z.minLength(1, 'must not be empty'), z.maxLength(MAX_MODEL_NAME_LENGTH, `at most ${MAX_MODEL_NAME_LENGTH} characters`), z.regex(/^[^\p{Cc}]*$/u, 'must be one line without control characters'));
export const envNameSchema = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be the NAME of an environment variable (letters, digits, "_"), not the key itself'));
export const apiLabelSchema = z.string().check(z.regex(apiStylePattern, `must be 1–${MAX_API_STYLE_LENGTH} printable ASCII characters without spaces, such as "openai-completions"`));
const tokens = z.int().check(z.positive(), z.maximum(MAX_TOKEN_COUNT, `at most ${MAX_TOKEN_COUNT}`));
const price = z.number().check(z.gte(0, 'must not be negative'), z.lte(MAX_PRICE, `at most ${MAX_PRICE} dollars per million tokens`));
/** A price left out stays out: the cost feature says "unknown", never 0. */
export const costSchema = z.strictObject({input: z.optional(price), output: z.optional(price), cacheRead: z.optional(price), cacheWrite: z.optional(price)});
export const inputKindsSchema = z.array(z.enum(['text', 'image'])).check(z.minLength(1, 'must list at least "text"'), z.maxLength(2, 'lists "text" and "image" at most'));
export const contextWindowSchema = tokens;
export const maxTokensSchema = tokens;

/** An endpoint shown in lists: http or https, no user name or password in it. */
export const baseUrlSchema = z.string().check(
	z.refine(isHttpUrl, 'must be an http:// or https:// URL'),
	z.refine(value => !hasCredentials(value), 'may not hold a user name or password (it is shown); put credentials in an environment variable'),
);
