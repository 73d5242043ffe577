import {join, relative} from 'node:path';
import type {PlatformDirs} from '../config/dirs.js';
import type {RunSettings} from '../extensions/settings-file.js';
import type {ProjectMcpServer} from '../mcp/mcp-config.js';

/** What the trust question names besides the project's extensions: what else of the project counts only in a trusted workspace. */
export interface AskedContent {
	mcpServers: ProjectMcpServer[];
	/** `rule (file)`, the file relative to the workspace. */
	allowRules: string[];
	/** What the project's `"sandbox"` settings loosen: `allowWrite PATH (file)`, `allowedDomains HOST (file)`, `enabled false (file)`. */
	sandboxSettings: string[];
	/** What the project's models.json would point elsewhere (models-file.ts, projectEndpoints). */
	modelEndpoints: string[];
}

/**
 * The project's MCP servers, permission allow rules, sandbox settings and models.json endpoints, for a head that asks
 * about trust (start-extensions.ts): a project whose only content is one of
 * them is asked about too, since they start or count only once it is
 * trusted. A file that cannot be read names nothing here: starting the
 * servers, or reading the rules, reports it.
 */
export async function askedContent(workspace: string, dirs: PlatformDirs, settings: RunSettings): Promise<AskedContent> {
	const [mcpServers, allowRules, sandboxSettings, modelEndpoints] = await Promise.all([
		askedMcpServers(workspace, dirs),
		askedAllowRules(workspace, settings).catch(() => []),
		askedSandboxSettings(workspace, settings).catch(() => []),
		askedModelEndpoints(workspace).catch(() => []),
	]);
	return {mcpServers, allowRules, sandboxSettings, modelEndpoints};
}

async function askedMcpServers(workspace: string, dirs: PlatformDirs): Promise<ProjectMcpServer[]> {
	const {projectMcpServers, readMcpFiles} = await import('../mcp/mcp-config.js');
	// The project's files only: the global settings' servers need no trust.
	return readMcpFiles(workspace, dirs.config_dir, {projectOnly: true}).then(projectMcpServers, () => []);
}

/** The project's models.json entries that point a provider elsewhere: they count only in a trusted workspace (trusted-models-files.ts). */
async function askedModelEndpoints(workspace: string): Promise<string[]> {
	const {projectEndpoints, readModelsFile} = await import('../catalogue/models-file.js');
	const file = await readModelsFile(join(workspace, '.i', 'models.json'), true);
	return file ? projectEndpoints(file, workspace) : [];
}

/** The `"sandbox"` settings of `.i/settings.json` and `.i/settings.local.json`, which count only in a trusted workspace (sandbox-config.ts). */
async function askedSandboxSettings(workspace: string, settings: RunSettings): Promise<string[]> {
	const {readSettingsFile} = await import('../extensions/settings-file.js');
	const files = [settings.project, await readSettingsFile(join(workspace, '.i', 'settings.local.json'))];
	return files.flatMap(file => {
		if (!file?.sandbox) return [];
		const {enabled, allowWrite, allowedDomains} = file.sandbox;
		const where = ` (${relative(workspace, file.path)})`;
		return [...(enabled === false ? [`enabled false${where}`] : []), ...allowWrite.map(path => `allowWrite ${path}${where}`), ...allowedDomains.map(domain => `allowedDomains ${domain}${where}`)];
	});
}

/** The allow rules of `.i/settings.json` and `.i/settings.local.json` as written; the global file's count without trust. */
async function askedAllowRules(workspace: string, settings: RunSettings): Promise<string[]> {
	const {readRuleFiles} = await import('../permissions/rule-files.js');
	const files = await readRuleFiles(settings, workspace);
	return files.filter(file => file.source !== 'global').flatMap(file => file.lists.allow.map(rule => `${rule} (${relative(workspace, file.path)})`));
}
