import {lstatSync, opendirSync, realpathSync, statSync, type Dir} from 'node:fs';
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

/** A root or a skill that cannot be used: the message names it and the rule. */
export class SkillsError extends Error {}

/** What discovery found: the skills to use, and what was left out. */
export interface Discovery {
	skills: Skill[];
	/**
	 * Each root and skill left out, and each skill shadowed by an earlier one
	 * of its name, as a message naming the folder or file and the reason.
	 */
	problems: string[];
}

/**
 * Every skill of `roots`, in root order then folder name order. A skill is
 * a folder `<root>/<dir>/` (a symlink to a folder counts) holding SKILL.md;
 * other entries are ignored. One bad resource never hides the others: a
 * root that cannot be read or passes a limit (more than MAX_ROOT_ENTRIES
 * entries or MAX_SKILLS_PER_ROOT skills) and a skill that cannot be read (a
 * SKILL.md over the byte limit, bad front matter) are left out and named in
 * `problems`. Of two skills of one name the first found is used and the
 * other is named (spec/extensions.md §8: earlier roots win). A root
 * reached twice (the same real folder) is searched once, and so is a skill
 * folder linked from two roots.
 */
export async function discoverSkills(roots: readonly SkillRoot[]): Promise<Discovery> {
	const skills: Skill[] = [];
	const problems: string[] = [];
	const byName = new Map<string, Skill>();
	const seenRoots = new Set<string>();
	const seenFolders = new Set<string>();
	for (const root of roots) {
		let found: RootSkills;
		try {
			const real = realRoot(root);
			if (real === null || seenRoots.has(real)) continue;
			seenRoots.add(real);
			found = rootSkills(root, real);
		} catch (error) {
			if (!(error instanceof SkillsError)) throw error;
			problems.push(`${error.message}; the root is left out`);
			continue;
		}

		problems.push(...found.problems);
		// The same folder linked twice (`.claude/skills/x` → `.agents/skills/x`) is one skill, not a repeated name.
		const fresh = found.folders.filter(({folder}) => {
			if (seenFolders.has(folder.path)) return false;
			seenFolders.add(folder.path);
			return true;
		});
		const read = await Promise.all(fresh.map(async ({dir, folder}) => readSkill(path.join(root.path, dir, SKILL_FILE), folder)));
		for (const result of read) {
			if (result instanceof SkillsError) {
				problems.push(`${result.message}; the skill is left out`);
				continue;
			}

			const first = byName.get(result.name);
			if (first) {
				problems.push(`skill "${result.name}" of ${result.file} is not used: ${first.file} has the same name and was found first (rename one to use both)`);
				continue;
			}

			byName.set(result.name, result);
			skills.push(result);
		}
	}

	return {skills, problems};
}

/**
 * The root's real path, or null for a default root that is not there.
 * Discovery runs on every turn: its metadata calls are synchronous (quicker
 * without a trip through the thread pool, in a worker that serves one
 * request at a time), and a SKILL.md is read again only when it changed.
 */
function realRoot(root: SkillRoot): string | null {
	let real: string;
	let isFolder: boolean;
	try {
		real = realpathSync.native(root.path);
		isFolder = statSync(real).isDirectory();
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if ((code === 'ENOENT' || code === 'ENOTDIR') && !root.required) return null;
		throw new SkillsError(`skills ${root.origin} ${root.path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`}`);
	}

	if (!isFolder) throw new SkillsError(`skills ${root.origin} ${root.path} is not a folder`);
	return real;
}

/** The skill folders of a root, by their entry names; and the entries that could not be looked at. */
interface RootSkills {
	folders: Array<{dir: string; folder: SkillFolder}>;
	problems: string[];
}

function rootSkills(root: SkillRoot, real: string): RootSkills {
	const names = entryNames(root, real);
	const found: RootSkills = {folders: [], problems: []};
	for (const dir of names) {
		const folder = skillFolder(path.join(real, dir));
		if (folder instanceof SkillsError) found.problems.push(`${folder.message}; the skill is left out`);
		else if (folder !== null) found.folders.push({dir, folder});
	}

	if (found.folders.length > MAX_SKILLS_PER_ROOT) {
		throw new SkillsError(`skills ${root.origin} ${root.path} has ${found.folders.length} skills; a root may have at most ${MAX_SKILLS_PER_ROOT} (split them into several roots)`);
	}

	return found;
}

/** The root's entry names, sorted; reading stops one past the limit. */
function entryNames(root: SkillRoot, real: string): string[] {
	const names: string[] = [];
	let dir: Dir;
	try {
		dir = opendirSync(real);
	} catch (error) {
		throw new SkillsError(`skills ${root.origin} ${root.path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
	}

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

/** `entry` (in a real root) when it is a folder (or a symlink to one) holding a SKILL.md, null when it is not, or why it cannot be looked at. */
function skillFolder(entry: string): SkillFolder | SkillsError | null {
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
		return new SkillsError(`${entry} cannot be read (${code ?? String(error)})`);
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

/** The skill whose SKILL.md is `file`, or why it cannot be used. */
async function readSkill(file: string, folder: SkillFolder): Promise<Skill | SkillsError> {
	try {
		const real = resolveInSkill(folder.path, SKILL_FILE);
		const known = parsedSkills.get(real);
		if (known !== undefined && known.identity === folder.identity) return {...known.skill, file, folder: folder.path};
		parsedSkills.delete(real);
		const skill = await parseSkill(real, file);
		if (Date.now() - folder.mtimeMs > SETTLED_MS) parsedSkills.set(real, {identity: folder.identity, skill});
		return {...skill, file, folder: folder.path};
	} catch (error) {
		if (error instanceof SkillsError) return error;
		if (error instanceof SkillFileError) return new SkillsError(error.message.startsWith(file) ? error.message : `${file}: ${error.message}`);
		if (error instanceof FrontMatterError) return new SkillsError(error.message);
		throw error;
	}
}

async function parseSkill(real: string, file: string): Promise<Omit<Skill, 'file' | 'folder'>> {
	const parsed = await parseSkillFile(await readSkillText(real, file), file);
	const checked = checkSkillFields(parsed.fields, parsed.lines);
	if ('error' in checked) throw new SkillsError(`${file}: ${checked.error}`);
	return {name: checked.fields.name, description: checked.fields.description, body: parsed.body};
}
