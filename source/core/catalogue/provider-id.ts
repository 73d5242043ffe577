/**
 * The rules a provider's id, wire label and endpoint share wherever they are
 * written: an extension's registration (check-provider.ts), its catalogue
 * and models.json (catalogue-fields.ts), and a config's `"provider"`. No
 * zod here: the model config's schema loads this at every start.
 */

/** What `--provider`, a config's `provider` and a registration name: short, lower-case and URL-host-safe. */
export const MAX_PROVIDER_ID_LENGTH = 64;
export const providerIdPattern = new RegExp(`^[a-z0-9][a-z0-9._-]{0,${MAX_PROVIDER_ID_LENGTH - 1}}$`);
/** An api or apiStyle is a label (`openai-completions`), shown in lists. */
export const MAX_API_STYLE_LENGTH = 64;
export const apiStylePattern = new RegExp(`^[\\x21-\\x7e]{1,${MAX_API_STYLE_LENGTH}}$`);

/** Whether `value` is an http:// or https:// URL. */
export function isHttpUrl(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/** Whether a URL holds a user name or password: an endpoint is shown, so a credential in it would be too. */
export function hasCredentials(url: string): boolean {
	return /^[a-z]+:\/\/[^/]*@/i.test(url);
}
