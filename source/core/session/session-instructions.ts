import type {Session} from './session-store.js';
import {INSTRUCTIONS_HEADING, renderInstructionsBlock} from '../resources/instructions-block.js';
import {readProjectInstructions, type InstructionFile} from '../resources/project-instructions.js';

/** The AGENTS.md files of a session's system prompt, as /context shows them. */
export interface SessionInstructions {
	/** As read, global first, the nearest last. */
	files: InstructionFile[];
	/** Their block at the end of the system prompt; '' for none. */
	block: string;
	/**
	 * False when the session's saved prompt does not hold this block: a
	 * resumed session keeps the instructions it started with, and the files
	 * changed since (/reload gives it these).
	 */
	inSession: boolean;
	/** False with `--no-agents-md`. */
	enabled: boolean;
}

/** What /reload and /clear get back from reading the files again. */
export interface InstructionsReload {
	/** The system prompt a new session starts with now. */
	systemPrompt: string;
	instructions: SessionInstructions;
	/** Files that could not be used, for the person. */
	notices: string[];
	/** True when the session's saved system prompt was rewritten. */
	changed: boolean;
}

/** The files and their block; nothing at all when turned off. */
export async function readInstructions(where: {enabled: boolean; workspace: string; configDir: string}): Promise<{files: InstructionFile[]; notices: string[]; block: string}> {
	if (!where.enabled) return {files: [], notices: [], block: ''};
	const {files, notices} = await readProjectInstructions(where);
	return {files, notices, block: renderInstructionsBlock(files)};
}

/** Whether the session's saved system prompt holds `block` (a new session will). */
export function sessionHolds(session: Session, block: string): boolean {
	const first = session.messages[0];
	if (first === undefined) return true;
	const saved = first.role === 'system' && typeof first.content === 'string' ? first.content : '';
	return block === '' ? !saved.includes(INSTRUCTIONS_HEADING) : saved.endsWith(block);
}
