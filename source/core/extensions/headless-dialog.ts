import type {DialogAnswer} from './ui-dialog-request.js';
import {RuntimeActionError} from './runtime-link.js';

/**
 * The `uiDialog` service of a head without a screen (-p, line mode,
 * --json, the core API): the request is checked as on the screen, then
 * refused. Nobody is there to answer, and answering for the person (a
 * default, a yes) would be deciding in their name. The checks load with
 * the first dialog: a run that asks none never builds their schemas.
 */
export function headlessDialog(head: string): (extension: string, request: unknown) => Promise<DialogAnswer> {
	return async (extension, request) => {
		const {parseDialogRequest} = await import('./ui-dialog-request.js');
		const checked = parseDialogRequest(extension, request);
		throw new RuntimeActionError('uiDialog', 'unavailable', `extension ${extension}: ${head} has no screen to ask on, so the ${checked.type} dialog "${checked.title}" was not shown and nobody answered it`);
	};
}
