import type {Tool} from './types.js';

/**
 * Who provides a tool, as approvals name it (docs/approvals.md): the
 * person sees whose code will run, never a worker's internal command line.
 */
export const NATIVE_OWNER = 'native';

/** An external tool built without an owner (a test's, an embedder's): said as what it is, never as native. */
export const UNNAMED_EXTERNAL_OWNER = 'external tool';

export function toolOwner(tool: Pick<Tool, 'owner' | 'external'>): string {
	return tool.owner ?? (tool.external === true ? UNNAMED_EXTERNAL_OWNER : NATIVE_OWNER);
}

/** An official module's tool, run by the official host that ships with i. */
export function officialModuleOwner(module: string): string {
	return `official module ${module}`;
}

/** An official module that bindings.json replaced with a worker of the person's choosing. */
export function boundModuleOwner(module: string, bindingsFile: string): string {
	return `module ${module}, bound in ${bindingsFile}`;
}

/** A tool a plugin manifest declares, run by that manifest's worker. */
export function pluginOwner(manifest: string): string {
	return `plugin worker of ${manifest}`;
}

export function extensionOwner(name: string, file: string): string {
	return `extension ${name} (${file})`;
}

export function mcpOwner(server: string, file: string): string {
	return `MCP server ${server} (${file})`;
}
