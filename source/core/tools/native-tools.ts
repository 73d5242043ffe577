import {createEditTool} from './edit.js';
import {createGlobTool} from './glob.js';
import {createReadTool} from './read.js';
import {createSearchTool} from './search.js';
import {createShellTool} from './shell.js';
import type {Tool} from './types.js';
import {createViewImageTool} from './view-image.js';
import {createWriteTool} from './write.js';

/** The built-in tools, in `nativeToolNames` order (native-tool-names.ts). */
export function createNativeTools(): Tool[] {
	return [createReadTool(), createWriteTool(), createEditTool(), createShellTool(), createGlobTool(), createSearchTool(), createViewImageTool()];
}
