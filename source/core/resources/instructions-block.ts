import {basename} from 'node:path';
import {FALLBACK_INSTRUCTIONS_FILE, MAX_INSTRUCTIONS_FILE_BYTES, type InstructionFile} from './project-instructions.js';

/**
 * The project instructions as one block at the end of the system prompt.
 *
 * Why the system prompt, and why its end: a session's system prompt is its
 * first message, saved with it, so the block is sent unchanged with every
 * request of the session (the provider's prompt cache keeps hitting: nothing
 * that changes per turn is in it), a resumed session keeps what it started
 * with, and compaction keeps it (message 0 is never summarised, unlike a
 * context message). It comes after the chosen prompt, `.i/SYSTEM.md` when it
 * replaces that, and `.i/APPEND_SYSTEM.md`, which amend the prompt itself;
 * the instructions are the project's documents about the work, the nearest
 * file last, so a replaced prompt never drops them.
 */

/** The block's first line: what /reload looks for to put the new block in place of the old one. */
export const INSTRUCTIONS_HEADING = '# Project instructions (AGENTS.md)';

/** The block for `files`, or '' when there are none. */
export function renderInstructionsBlock(files: readonly InstructionFile[]): string {
	if (files.length === 0) return '';
	const sections = files.map(renderFileSection);
	// The wording changes only when a CLAUDE.md is given, so a block of AGENTS.md files stays byte for byte what saved sessions hold.
	const kept = files.some(file => basename(file.path) === FALLBACK_INSTRUCTIONS_FILE) ? `AGENTS.md files (${FALLBACK_INSTRUCTIONS_FILE} where a folder has no AGENTS.md)` : 'AGENTS.md files';
	return [
		INSTRUCTIONS_HEADING,
		'',
		`The person and the project keep these instructions in ${kept}, given here with their paths: the global one first, then the repository root down to the workspace. Follow them; where they disagree, the later (nearer) file wins.`,
		...sections.flatMap(section => ['', section]),
	].join('\n');
}

/** One file's section: its path as a heading, its text, and the note when it was cut. */
export function renderFileSection(file: InstructionFile): string {
	const text = file.text.trimEnd();
	const note = file.cut ? `\n\n[cut: this file is ${file.bytes} bytes; only its first ${MAX_INSTRUCTIONS_FILE_BYTES} bytes are given]` : '';
	return `## ${file.path}\n\n${text}${note}`;
}

/** `base` with the block after it (a blank line between); `base` itself when there is no block. */
export function withInstructions(base: string, block: string): string {
	if (block === '') return base;
	return base.trim() === '' ? block : `${base.trimEnd()}\n\n${block}`;
}

/**
 * A saved system prompt with its instructions block replaced by `block`
 * (/reload). `current`, the block this run put there, is cut exactly when
 * the prompt ends with it; otherwise (a resumed session's) the old block is
 * the first line that is INSTRUCTIONS_HEADING after a blank line, to the
 * end (the base is the host's prompt, a file's text may quote anything); a prompt without one gets `block` added.
 */
export function replaceInstructions(prompt: string, block: string, current = ''): string {
	if (current !== '' && prompt.endsWith(current)) return withInstructions(prompt.slice(0, prompt.length - current.length), block);
	const at = prompt.startsWith(`${INSTRUCTIONS_HEADING}\n`) ? 0 : prompt.indexOf(`\n\n${INSTRUCTIONS_HEADING}\n`);
	return withInstructions(at === -1 ? prompt : prompt.slice(0, at), block);
}
