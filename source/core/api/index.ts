/**
 * `i-agent/core`: the headless core of `i` for scripts and editor
 * integrations. Open a session in a workspace, run turns, and read the
 * same typed events the heads of `i` render (`i --json` prints them).
 *
 * @example
 * ```
 * import {openSession} from 'i-agent/core';
 *
 * const session = await openSession({cwd: '/path/to/repo'});
 * try {
 * 	const {text} = await session.run('What does this project do?');
 * 	console.log(text);
 * } finally {
 * 	await session.close();
 * }
 * ```
 */
export {openSession} from './open-session.js';
export {StartVetoError, TurnFailedError, UsageError} from './errors.js';
export type {ApprovalRequest, CatalogueConfig, Config, CoreEvent, ImagePart, Message, OpenSessionOptions, ProtocolConfig, RunOptions, Session, TextPart, TurnResult, Usage, UserContent} from './types.js';
