/** The limits of spec/platform.md §9 for web access: those the tools state come from their definitions. */
export {CLIENT_TIMEOUT_MS, MAX_BODY_BYTES, MAX_OUTPUT_CHARS, MAX_REQUESTS, MAX_SEARCH_RESULTS} from '../../source/core/plugins/web-tools.js';

/** A credentials file holds one key; anything bigger is the wrong file. */
export const MAX_CREDENTIAL_BYTES = 16 * 1024;
