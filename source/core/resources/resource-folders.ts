import {isAbsolute} from 'node:path';
import * as z from 'zod/mini';

/**
 * The skill and prompt-template folders a host hands the skills and prompts
 * modules (spec/extensions.md §8): the vocabulary the core and those workers
 * share, in a module of its own so neither imports the other. The core sends
 * the folders at the top of each request frame, beside `workspace` and
 * `paths` (spec/platform.md §2, `resources`; docs/plugins.md); a frame
 * without them leaves each module to the workspace's conventional folders
 * below.
 */

/**
 * The workspace's own skill roots (spec/platform.md §9), i's and the shared
 * `.agents/skills` first, then Claude Code's (issue 45 point 12).
 */
export const PROJECT_SKILL_FOLDERS = ['.agents/skills', '.i/skills', '.claude/skills'] as const;
/** The workspace's own prompt templates (spec/extensions.md §8 `.i/prompts/`). */
export const PROJECT_PROMPT_FOLDER = '.i/prompts';
/** pi's project folder: its skills and prompts come after all of `.i`'s (spec/extensions.md §8, `.i` before `.pi`). */
export const PI_FOLDER = '.pi';
export const PI_SKILL_FOLDER = '.pi/skills';
export const PI_PROMPT_FOLDER = '.pi/prompts';
/** What a module searches when the host names no folders: the conventional ones, in the order of §8. */
export const DEFAULT_SKILL_FOLDERS = [...PROJECT_SKILL_FOLDERS, PI_SKILL_FOLDER] as const;
export const DEFAULT_PROMPT_FOLDERS = [PROJECT_PROMPT_FOLDER, PI_PROMPT_FOLDER] as const;

export interface ResourceFolder {
	/** Absolute. It may be missing (a folder a build makes later); the module skips it then. */
	path: string;
	/** Where it was named, for messages: `--skill`, `settings /w/.i/settings.json`, `extension todo`, `the workspace`. */
	origin: string;
}

/** A list given (even empty) replaces that module's conventional folders; an absent one leaves them. */
export interface ResourceFolders {
	skills?: ResourceFolder[];
	prompts?: ResourceFolder[];
}

/**
 * Folders of one kind in one frame. The spec gives no number; this bounds a
 * frame that flags, two settings files of 256 entries each and the
 * extensions' discovered paths together could otherwise grow without end.
 */
export const MAX_RESOURCE_FOLDERS = 1024;
/** Characters of one `origin`: a label and a path. */
export const MAX_ORIGIN_CHARS = 4096;

const folderSchema = z.strictObject({
	path: z.string().check(z.refine(isAbsolute, {message: 'must be an absolute path'})),
	origin: z.string().check(z.minLength(1), z.maxLength(MAX_ORIGIN_CHARS)),
});
const listSchema = z.optional(z.array(folderSchema).check(z.maxLength(MAX_RESOURCE_FOLDERS, `at most ${MAX_RESOURCE_FOLDERS} folders`)));

/** The frame's `resources` field. */
export const resourceFoldersSchema = z.strictObject({skills: listSchema, prompts: listSchema});
