import {realpathSync} from 'node:fs';
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';
import {UsageError} from '../errors.js';
import {parseDomainEntry} from './domain-match.js';

/** What a program's own sandbox gives it beyond the temporary folder (docs/sandbox.md). */
export interface SandboxGrant {
	/** Folders it may write: canonical, existing. */
	writable: string[];
	/** Hosts it may reach through a domain proxy of its own, lower-case; none: no network. */
	allowedDomains: string[];
}

/** `"sandbox"` on an MCP server's or a worker's entry, as its schema let it through: on, off, or on with folders and domains. */
export type SandboxEntry = boolean | {allowWrite?: string[] | undefined; allowedDomains?: string[] | undefined} | undefined;

/**
 * The sandbox an entry asks for, null when none: `allowWrite` resolved from
 * `base` (`~/` from the home folder) and found on disk now, the domains
 * checked. Either kind of mistake is a UsageError naming `where` (the file
 * and the entry) and the field.
 */
export function checkSandboxEntry(entry: SandboxEntry, place: {base: string; where: string}): SandboxGrant | null {
	if (entry === undefined || entry === false) return null;
	const {allowWrite = [], allowedDomains = []} = entry === true ? {} : entry;
	const writable = allowWrite.map((path, index) => writableFolder(fromBase(path, place.base), `${place.where}: field "sandbox.allowWrite[${index}]"`));
	for (const [index, domain] of allowedDomains.entries()) {
		const problem = parseDomainEntry(domain);
		if (typeof problem === 'string') throw new UsageError(`${place.where}: field "sandbox.allowedDomains[${index}]": ${JSON.stringify(domain)} ${problem}`);
	}

	return {writable: [...new Set(writable)], allowedDomains: allowedDomains.map(domain => domain.toLowerCase())};
}

/**
 * A folder a sandbox may let a program write, canonical. bubblewrap binds
 * only what exists, so a missing one is a UsageError that starts with
 * `field` (the file and the field).
 */
export function writableFolder(path: string, field: string): string {
	try {
		return realpathSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === 'ENOENT' || code === 'ENOTDIR' ? 'does not exist' : `cannot be used (${code ?? (error as Error).message})`;
		throw new UsageError(`${field}: ${path} ${why}; a sandbox lets a program write only in folders that exist`);
	}
}

function fromBase(path: string, base: string): string {
	return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : resolve(base, path);
}
