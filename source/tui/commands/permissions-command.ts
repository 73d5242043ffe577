import type {ScreenCommand} from './command-context.js';

const usage = '/permissions, /permissions allow|ask|deny RULE [--project|--global], /permissions remove RULE [--project|--global]';

export const permissionsCommand: ScreenCommand = {
	name: '/permissions',
	usage,
	description: 'the permission rules in force and their files; allow, ask, deny or remove a rule (.i/settings.local.json by default)',
	takesArguments: true,
	async run({agent, store}, args) {
		const {parsePermissionsArgs, formatRules, changeRules} = await import('./permissions-slash.js');
		const request = parsePermissionsArgs(args);
		if (request === null) {
			store.notice('warning', `usage: ${usage}`);
			return;
		}

		const permissions = agent.permissions;
		if (permissions === null) {
			store.notice('warning', "this agent's permission rules were given by its embedder and cannot be changed here");
			return;
		}

		if (request.kind === 'list') {
			store.notice('info', formatRules(permissions.rules, permissions.problems, permissions.workspace));
			return;
		}

		try {
			store.notice('info', await changeRules(permissions, request));
		} catch (error) {
			store.notice('error', (error as Error).message);
		}
	},
};
