import type {ScreenCommand} from './command-context.js';

const usage = '/mcp, /mcp reconnect NAME, /mcp login NAME or /mcp logout NAME';

export const mcpCommand: ScreenCommand = {
	name: '/mcp',
	usage,
	description: 'MCP servers: state, tools, last error (/mcp reconnect NAME starts one again; /mcp login NAME, /mcp logout NAME)',
	takesArguments: true,
	async run({agent, store}, args) {
		const {mcpSlash} = await import('./mcp-slash.js');
		// A login waits for the browser's redirect (minutes at most); the screen goes on meanwhile (commands are not awaited).
		const notice = await mcpSlash(agent.mcp, args, text => store.notice('info', text));
		if (notice === null) store.notice('warning', `usage: ${usage}`);
		else store.notice(notice.level, notice.text);
	},
};
