import {replaceInstructions, withInstructions} from '../resources/instructions-block.js';
import {readInstructions, sessionHolds, type InstructionsReload, type SessionInstructions} from './session-instructions.js';
import type {Session} from './session-store.js';

/** Where the AGENTS.md files are read from, and whether they are read at all (`--no-agents-md`). */
export interface InstructionsPlace {
	enabled: boolean;
	workspace: string;
	configDir: string;
}

/**
 * The system prompt a new session starts with: the prompt the start hooks
 * chose, and the AGENTS.md files' block at its end. A resumed session keeps
 * the prompt it was saved with until `reload` gives it the files as they
 * are now.
 */
export class SessionPrompt {
	readonly #base: string;
	readonly #place: InstructionsPlace;
	#systemPrompt: string;
	#instructions: SessionInstructions;

	constructor(base: string, read: {files: SessionInstructions['files']; block: string}, session: Session, place: InstructionsPlace) {
		this.#base = base;
		this.#place = place;
		this.#systemPrompt = withInstructions(base, read.block);
		this.#instructions = {files: read.files, block: read.block, inSession: sessionHolds(session, read.block), enabled: place.enabled};
	}

	get systemPrompt(): string {
		return this.#systemPrompt;
	}

	/** The AGENTS.md files in this session's system prompt, for /context. */
	get instructions(): SessionInstructions {
		return this.#instructions;
	}

	/**
	 * Reads the AGENTS.md files again (/reload, and /clear for the new
	 * session): `session`'s saved system prompt gets the new block in place
	 * of the old one (saved, so a resume keeps it; one cache miss, asked
	 * for), and new sessions start with it.
	 */
	async reload(session: Session): Promise<InstructionsReload> {
		const again = await readInstructions(this.#place);
		const first = session.messages[0];
		let changed = false;
		if (first?.role === 'system') {
			const next = replaceInstructions(first.content, again.block, this.#instructions.block);
			if (next !== first.content) {
				await session.replaceHistory([{...first, content: next}, ...session.messages.slice(1)]);
				changed = true;
			}
		}

		this.#systemPrompt = withInstructions(this.#base, again.block);
		this.#instructions = {files: again.files, block: again.block, inSession: true, enabled: this.#place.enabled};
		return {systemPrompt: this.#systemPrompt, instructions: this.#instructions, notices: again.notices, changed};
	}
}
