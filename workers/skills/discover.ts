import {lstatSync, opendirSync, realpathSync, statSync} from 'node:fs';
import path from 'node:path';
import {FrontMatterError, parseSkillFile} from './front-matter.js';
import {MAX_ROOT_ENTRIES, MAX_SKILLS_PER_ROOT, SKILL_FILE} from './limits.js';
import {readSkillText, resolveInSkill, SkillFileError} from './safe-read.js';
import {checkSkillFields} from './skill-schema.js';

/** A folder searched for skills. */
export interface SkillRoot {
	/** Absolute. */
	path: string;
	/** A default root may be missing; a configured one must exist. */
	required: boolean;
	/** Where it comes from, for messages: "default root" or "root from CONFIG". */
	origin: string;
}

export interface Skill {
	name: string;
	description: string;
	/** The SKILL.md as found under its root (not resolved), for messages and the index. */
	file: string;
	/** The skill folder's real path: skill_read never leaves it. */
	folder: string;
	/** Everything after the front matter. */
	body: string;
}

/** Discovery failed: the message names the root or file and the rule. */
export class SkillsError extends Error {}

/**
 * Every skill of `roots`, in root order then folder name order. A skill is
 * a folder `<root>/<dir>/` (a symlink to a folder counts) holding SKILL.md;
 * other entries are ignored. Errors rather than partial results: a root
 * with more than MAX_ROOT_ENTRIES entries or more than MAX_SKILLS_PER_ROOT
 * skills, a SKILL.md over the byte limit, bad front matter, or a name used
 * twice (the error names both files). A root reached twice (the same real
 * folder) is searched once, and so is a skill folder linked from two roots.
 */
export async function discoverSkills(roots: readonly SkillRoot[]): Promise<Skill[]> {
	const skills: Skill[] = [];
	const byName = new Map<string, Skill>();
	const seen = new Set<string>();
	for (const root of roots) {
		const real = realRoot(root);
		if (real === null || seen.has(real)) continue;
		seen.add(real);
		for (const skill of await rootSkills(root, real)) {
			const other = byName.get(skill.name);
			// The same folder linked from two roots (`.claude/skills/x` → `.agents/skills/x`) is one skill, not a repeated name.
			if (other?.folder === skill.folder) continue;
			if (other) throw new SkillsError(`skill name "${skill.name}" is used twice: by ${other.file} and by ${skill.file}; names must be unique across all skill roots`);
			byName.set(skill.name, skill);
			skills.push(skill);
		}
	}

	return skills;
}

/**
 * The root's real path, or null for a default root that is not there.
 * Discovery runs on every turn: its metadata calls are synchronous (quicker
 * without a trip through the thread pool, in a worker that serves one
 * request at a time), and a SKILL.md is read again only when it changed.
 */
function realRoot(root: SkillRoot): string | null {
	let real: string;
	try {
		real = realpathSync.native(root.path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if ((code === 'ENOENT' || code === 'ENOTDIR') && !root.required) return null;
		throw new SkillsError(`skills ${root.origin} ${root.path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`}`);
	}

	if (!statSync(real).isDirectory()) throw new SkillsError(`skills ${root.origin} ${root.path} is not a folder`);
	return real;
}

async function rootSkills(root: SkillRoot, real: string): Promise<Skill[]> {
	const names = entryNames(root, real);
	const found: Array<{dir: string; folder: SkillFolder}> = [];
	for (const dir of names) {
		const folder = skillFolder(path.join(real, dir));
		if (folder !== null) found.push({dir, folder});
	}

	if (found.length > MAX_SKILLS_PER_ROOT) {
		throw new SkillsError(`skills ${root.origin} ${root.path} has ${found.length} skills; a root may have at most ${MAX_SKILLS_PER_ROOT} (split them into several roots)`);
	}

	return Promise.all(found.map(async ({dir, folder}) => readSkill(path.join(root.path, dir, SKILL_FILE), folder)));
}

/** The root's entry names, sorted; reading stops one past the limit. */
function entryNames(root: SkillRoot, real: string): string[] {
	const names: string[] = [];
	const dir = opendirSync(real);
	try {
		for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
			names.push(entry.name);
			if (names.length > MAX_ROOT_ENTRIES) {
				throw new SkillsError(`skills ${root.origin} ${root.path} has more than ${MAX_ROOT_ENTRIES} entries; a root may have at most ${MAX_ROOT_ENTRIES} (keep only skill folders in it)`);
			}
		}
	} finally {
		dir.closeSync();
	}

	return names.sort();
}

/** A skill's folder (its real path) and what its SKILL.md (followed through a symlink) is: device, inode, size, modification time. */
interface SkillFolder {
	path: string;
	identity: string;
	mtimeMs: number;
}

/** `entry` (in a real root) when it is a folder (or a symlink to one) holding a SKILL.md, else null. */
function skillFolder(entry: string): SkillFolder | null {
	try {
		const link = lstatSync(entry);
		if (!link.isSymbolicLink() && !link.isDirectory()) return null;
		if (link.isSymbolicLink() && !statSync(entry).isDirectory()) return null;
		// A folder right inside the real root is its own real path; only a symlink needs resolving.
		const folder = link.isSymbolicLink() ? realpathSync.native(entry) : entry;
		const info = statSync(path.join(folder, SKILL_FILE), {bigint: true});
		return {path: folder, identity: `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`, mtimeMs: Number(info.mtimeMs)};
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		// A dangling symlink or a folder without SKILL.md is not a skill.
		if (code === 'ENOENT' || code === 'ENOTDIR') return null;
		throw new SkillsError(`${entry} cannot be read (${code ?? String(error)})`);
	}
}

/** A SKILL.md read before, by its real path: what it said, and the file it was (device, inode, size, modification time). */
const parsedSkills = new Map<string, {identity: string; skill: Omit<Skill, 'file' | 'folder'>}>();

/**
 * A file changed this recently may change again within the clock's
 * granularity without its identity changing, so it is read again until it
 * has been still for this long (as git treats "racy" timestamps).
 */
const SETTLED_MS = 2000;

async function readSkill(file: string, folder: SkillFolder): Promise<Skill> {
	let real: string;
	try {
		real = resolveInSkill(folder.path, SKILL_FILE);
	} catch (error) {
		throw skillsError(error, file);
	}

	const known = parsedSkills.get(real);
	if (known !== undefined && known.identity === folder.identity) return {...known.skill, file, folder: folder.path};
	parsedSkills.delete(real);
	const skill = await parseSkill(real, file);
	if (Date.now() - folder.mtimeMs > SETTLED_MS) parsedSkills.set(real, {identity: folder.identity, skill});
	return {...skill, file, folder: folder.path};
}

async function parseSkill(real: string, file: string): Promise<Omit<Skill, 'file' | 'folder'>> {
	let text: string;
	try {
		text = await readSkillText(real, file);
	} catch (error) {
		throw skillsError(error, file);
	}

	let parsed;
	try {
		parsed = parseSkillFile(text, file);
	} catch (error) {
		if (error instanceof FrontMatterError) throw new SkillsError(error.message);
		throw error;
	}

	const checked = checkSkillFields(parsed.fields, parsed.lines);
	if ('error' in checked) throw new SkillsError(`${file}: ${checked.error}`);
	return {name: checked.fields.name, description: checked.fields.description, body: parsed.body};
}

/** A skill file's problem as a discovery error naming the file. */
function skillsError(error: unknown, file: string): unknown {
	if (!(error instanceof SkillFileError)) return error;
	return new SkillsError(error.message.startsWith(file) ? error.message : `${file}: ${error.message}`);
}
