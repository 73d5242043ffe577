import type {ChildStarter} from '../child-request.js';
import {createDelegateTaskTool} from './delegate-task.js';
import {createDocsTool} from './docs.js';
import {createEditTool} from './edit.js';
import {createGlobTool} from './glob.js';
import {createReadTool} from './read.js';
import {createSearchTool} from './search.js';
import {createShellTool} from './shell.js';
import type {ChangeKeeper} from './keep-change.js';
import type {Secrets} from './run-command.js';
import type {ShellSandbox} from '../sandbox/shell-sandbox.js';
import type {Tool} from './types.js';
import {createViewImageTool} from './view-image.js';
import {createWriteTool} from './write.js';

/**
 * The built-in tools, in `nativeToolNames` order (native-tool-names.ts).
 * `delegate_task` needs the agent's child registry: without `children` (a
 * tool list outside a running agent) it is left out. `history` keeps the
 * before-images of what edit and write change, for /rewind; `sandbox` is
 * where shell commands run.
 */
export function createNativeTools(options: {secrets?: Secrets; children?: ChildStarter; history?: ChangeKeeper; sandbox?: ShellSandbox} = {}): Tool[] {
	const tools = [
		createReadTool(),
		createWriteTool({history: options.history}),
		createEditTool({history: options.history}),
		createShellTool(options.secrets, options.sandbox),
		createGlobTool(),
		createSearchTool(),
		createViewImageTool(),
		createDocsTool(),
	];
	return options.children ? [...tools, createDelegateTaskTool(options.children)] : tools;
}
