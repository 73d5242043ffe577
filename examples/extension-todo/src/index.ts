/**
 * i-extension-todo: a `todo` tool keeping one list per session in the
 * workspace. The entry `i` loads (package.json "exports"): built
 * JavaScript in dist/, written against the `i-agent/extension` types.
 */
import type {ExtensionApi} from 'i-agent/extension';
import {todoTool} from './todo-tool.js';

/** The extension API major this was written for: a host of another major refuses to load it, with a message. */
export const apiVersion = '1';

export default function register(api: ExtensionApi): void {
	// Capability detection (spec/extensions.md §3): every slot may be missing; without tools this extension has nothing to offer, and says so.
	if (!api.registerTool) throw new Error(`i-extension-todo needs api.registerTool, which this i (extension API ${api.apiVersion}) does not have: upgrade i`);
	api.registerTool(todoTool);
}
