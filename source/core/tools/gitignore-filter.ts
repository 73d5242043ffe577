import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import ignore, {type Ignore} from 'ignore';

/** A `.gitignore` larger than this is not read (its folder's names are kept): no real one comes near it. */
export const MAX_GITIGNORE_BYTES = 256 * 1024;

interface RuleSet {
	rules: Ignore;
	/** The walk root's path from the rules' folder, `/`-separated with a trailing slash ('' when the rules are the root's own). */
	prefix: string;
}

/**
 * The `.gitignore` rules for a walk of `root` (walk.ts `WalkOptions.skip`),
 * as git applies them: every `.gitignore` from the repository's top (the
 * nearest folder up with a `.git`) down to the folder a name is in, each
 * relative to its own folder, deeper ones overriding (a `!name` re-includes),
 * plus `.git/info/exclude`. Without a repository above, the root's and its
 * folders' own `.gitignore` files still count: a person who wrote one expects
 * it kept. The user's global excludes file (`core.excludesFile`) is not read.
 * Each folder's file is read once, when the walk first asks about a name in it.
 */
export function gitignoreFilter(root: string): (relative: string, isDirectory: boolean) => boolean {
	const above = rulesAbove(root);
	const own = new Map<string, Ignore | null>();
	const rulesIn = (folder: string): Ignore | null => {
		let rules = own.get(folder);
		if (rules === undefined) {
			rules = readRules(path.join(root, folder, '.gitignore'));
			own.set(folder, rules);
		}

		return rules;
	};

	return (relative, isDirectory) => {
		const suffix = isDirectory ? '/' : '';
		let ignored = false;
		const apply = (rules: Ignore, name: string) => {
			const result = rules.test(name + suffix);
			if (result.ignored) ignored = true;
			else if (result.unignored) ignored = false;
		};

		for (const set of above) apply(set.rules, set.prefix + relative);
		const parts = relative.split('/');
		// The folders from the root down to the name's own: a deeper file's rules come later and win.
		for (let depth = 0; depth < parts.length; depth++) {
			const rules = rulesIn(parts.slice(0, depth).join('/'));
			if (rules) apply(rules, parts.slice(depth).join('/'));
		}

		return ignored;
	};
}

/** The rules of the folders above the root up to the repository's top, top first, and the repository's info/exclude. */
function rulesAbove(root: string): RuleSet[] {
	const folders: string[] = [];
	if (!isRepositoryTop(root)) {
		for (let folder = path.dirname(root); ; folder = path.dirname(folder)) {
			folders.unshift(folder);
			if (isRepositoryTop(folder)) break;
			// No repository above: the folders' files are none of git's business here.
			if (path.dirname(folder) === folder) return [];
		}
	}

	const top = folders[0] ?? root;
	const sets: RuleSet[] = [];
	const prefixFrom = (folder: string) => {
		const relative = path.relative(folder, root).split(path.sep).join('/');
		return relative === '' ? '' : `${relative}/`;
	};

	const exclude = readRules(path.join(top, '.git', 'info', 'exclude'));
	if (exclude) sets.push({rules: exclude, prefix: prefixFrom(top)});
	for (const folder of folders) {
		const rules = readRules(path.join(folder, '.gitignore'));
		if (rules) sets.push({rules, prefix: prefixFrom(folder)});
	}

	return sets;
}

function isRepositoryTop(folder: string): boolean {
	return existsSync(path.join(folder, '.git'));
}

function readRules(file: string): Ignore | null {
	try {
		const stats = statSync(file);
		if (!stats.isFile() || stats.size > MAX_GITIGNORE_BYTES) return null;
		return ignore().add(readFileSync(file, 'utf8'));
	} catch {
		// None, or unreadable: nothing is ignored by it.
		return null;
	}
}
