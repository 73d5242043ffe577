import {createEditTool} from './edit.js';
import {createGlobTool} from './glob.js';
import {createReadTool} from './read.js';
import {createSearchTool} from './search.js';
import {createShellTool} from './shell.js';
import type {Tool} from './types.js';
import {createViewImageTool} from './view-image.js';
import {createWriteTool} from './write.js';

export const nativeToolNames = ['read', 'write', 'edit', 'shell', 'glob', 'search', 'view_image'] as const;

export type NativeToolName = (typeof nativeToolNames)[number];

/** The built-in tools, in `nativeToolNames` order. */
export function createNativeTools(): Tool[] {
	return [createReadTool(), createWriteTool(), createEditTool(), createShellTool(), createGlobTool(), createSearchTool(), createViewImageTool()];
}
