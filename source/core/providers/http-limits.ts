/** The HTTP layer's limits for model calls: http.ts applies them, the transport and the Files channel share them. */

/** spec/platform.md §6: a model HTTP body, success or error, is at most 48 MiB. */
export const MAX_BODY_BYTES = 48 * 1024 * 1024;
/** A server asking for a longer pause than this gets this; a turn should not sleep for hours. */
export const RETRY_AFTER_CAP_MS = 60_000;
/** A stream that sends nothing for this long is dead (models may think quietly for minutes). */
export const BODY_TIMEOUT_MS = 300_000;
/** Streaming APIs send headers as soon as they start work; a server this slow to answer is dead. */
export const HEADERS_TIMEOUT_MS = 120_000;
