/**
 * The core as the chat screen uses it, in one module the screen imports
 * only after its first frame: the agent's setup, turns, sessions and their
 * schemas are most of the code to load, and the person should not wait
 * for them to see the screen.
 */
export {setupAgent} from '../core/session/setup-agent.js';
export {openWorkspaceSession, provisionalSessionPath, renameWorkspaceSession} from '../core/session/workspace-sessions.js';
export {listSessions} from '../core/session/list-sessions.js';
export {forkSession} from '../core/session/fork-session.js';
export {sessionPickerRequest, cannotOpen} from './commands/session-picker.js';
export {showSessionHistory} from './resumed-history.js';
export {reportSetupError} from '../shared/report-setup-error.js';
export {resolveDirs} from '../core/config/dirs.js';
export {NoModelConfigError} from '../core/config/load-config.js';
export {promptContent, describeAttachments} from '../core/mentions/attach-mentions.js';
export {runUserBash} from '../core/user-bash/run-user-bash.js';
export {recordUserBash, userBashMessage} from '../core/user-bash/user-bash-message.js';

/** This module as the screen's parts hold it once it is loaded. */
export type ChatCore = typeof import('./chat-core.js');
