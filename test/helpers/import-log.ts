import {fileURLToPath} from 'node:url';

/** The module preloaded (`NODE_OPTIONS=--import=…`) to log every module URL a built `i` resolves into `I_TEST_IMPORT_LOG`. */
export const importRecorder = fileURLToPath(new URL('../fixtures/import-recorder.js', import.meta.url));

/** The bundle's chunk holding undici (source/core/providers/undici-transport.ts and what it imports). */
export const undiciChunk = /\/bundle\/undici-transport-[A-Z0-9]+\.js$/;

/** The bundle's chunk holding ink-text-input, which the first input dialog loads (components/text-input-chunk.ts). */
export const textInputChunk = /\/bundle\/text-input-chunk-[A-Z0-9]+\.js$/;
