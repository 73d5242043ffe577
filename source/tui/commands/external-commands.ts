import type {Agent} from '../../core/session/agent.js';
import type {CommandContext, ScreenCommand} from './command-context.js';

/**
 * The commands the loaded extensions registered, then the MCP servers'
 * prompts as their servers list them now (`/mcp__server__prompt`). Each runs
 * what the agent holds under its name when it is typed.
 */
export function externalCommands(agent: Pick<Agent, 'extensionUi' | 'mcp'>): ScreenCommand[] {
	const extensions = [...agent.extensionUi.commands].map(
		([name, command]): ScreenCommand => ({
			name: `/${name}`,
			usage: `/${name} …`,
			description: command.description,
			extension: command.extension,
			takesArguments: true,
			run: async (context, args) => runExternal(context, name, args),
		}),
	);
	const prompts = (agent.mcp.servers?.prompts() ?? []).map(
		(prompt): ScreenCommand => ({
			name: `/${prompt.command}`,
			usage: `/${prompt.command}${prompt.arguments.map(argument => (argument.required ? ` ${argument.name}=…` : ` [${argument.name}=…]`)).join('')}`,
			description: `${prompt.description} (MCP server ${prompt.server})`,
			takesArguments: true,
			run: async (context, args) => runExternal(context, prompt.command, args),
		}),
	);
	return [...extensions, ...prompts];
}

/** An extension's command by that name, else an MCP server's prompt; neither (it went since the list was made): nothing. */
async function runExternal({agent, turns}: Pick<CommandContext, 'agent' | 'turns'>, name: string, args: string): Promise<void> {
	const command = agent.extensionUi.commands.get(name);
	if (command) {
		turns.runExtensionCommand(name, command, args);
		return;
	}

	const prompt = agent.mcp.servers?.prompts().find(candidate => candidate.command === name);
	if (prompt) await turns.runMcpPrompt(prompt, args);
}
