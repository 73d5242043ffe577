/** The limits of seed §9 for web access, in one place. */

/** A page's body is read up to this many bytes (1 MB); the rest is dropped and the output says so. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** What one web_fetch returns to the model, notes included. */
export const MAX_OUTPUT_CHARS = 50_000;
/** HTTP requests per tool call, redirects included. */
export const MAX_REQUESTS = 5;
/** The whole tool call (every DNS lookup, connection, redirect and body) within this. */
export const CLIENT_TIMEOUT_MS = 8000;
/** A credentials file holds one key; anything bigger is the wrong file. */
export const MAX_CREDENTIAL_BYTES = 16 * 1024;
/** Results one web_search returns at most. */
export const MAX_SEARCH_RESULTS = 20;
