import {clearCommand} from './clear-command.js';
import type {ScreenCommand} from './command-context.js';
import {compactCommand} from './compact-command.js';
import {contextCommand} from './context-command.js';
import {costCommand} from './cost-command.js';
import {diffCommand} from './diff-command.js';
import {exitCommand} from './exit-command.js';
import {forkCommand} from './fork-command.js';
import {helpCommand} from './help-command.js';
import {initCommand} from './init-command.js';
import {mcpCommand} from './mcp-command.js';
import {modelCommand} from './model-command.js';
import {permissionsCommand} from './permissions-command.js';
import {providerCommand} from './provider-command.js';
import {queueCommand} from './queue-command.js';
import {reloadCommand} from './reload-command.js';
import {renameCommand} from './rename-command.js';
import {resumeCommand} from './resume-command.js';
import {rewindCommand} from './rewind-command.js';
import {sessionCommand} from './session-command.js';
import {themeCommand} from './theme-command.js';

/**
 * The chat screen's own commands, in the order the completion list and /help
 * show them; the extensions' and the MCP servers' follow. An extension's
 * command never takes one of these names (core/extensions/check-command.ts).
 */
export const builtinCommands: readonly ScreenCommand[] = [
	helpCommand,
	clearCommand,
	resumeCommand,
	forkCommand,
	rewindCommand,
	renameCommand,
	sessionCommand,
	providerCommand,
	modelCommand,
	costCommand,
	diffCommand,
	queueCommand,
	permissionsCommand,
	themeCommand,
	compactCommand,
	reloadCommand,
	contextCommand,
	initCommand,
	mcpCommand,
	exitCommand,
];
