import type {FileHistory, KeptChange, PlannedChange} from '../rewind/file-history.js';
import type {ToolContext} from './types.js';

/** What `edit` and `write` need of the agent's file history: where to keep a before-image, and where to note a temp file while it exists. */
export type ChangeKeeper = Pick<FileHistory, 'keep'> & Partial<Pick<FileHistory, 'writes'>>;

const nothingKept: KeptChange = {failed: async () => {}};

/** Keeps a change's before-image for /rewind, for a call of a session; a call outside one (a tool run on its own, an ephemeral session) keeps nothing. */
export async function keepChange(history: ChangeKeeper | undefined, context: Pick<ToolContext, 'sessionId'>, change: Omit<PlannedChange, 'session'>): Promise<KeptChange> {
	if (!history || context.sessionId === undefined) return nothingKept;
	return history.keep({...change, session: context.sessionId});
}
