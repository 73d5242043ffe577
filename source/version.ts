import {readFileSync} from 'node:fs';

/**
 * Our package.json, two folders above both dist/source and dist/bundle (so
 * also in an installed copy). meow is given it as `pkg`: it then searches
 * the disk for no package.json of its own.
 */
export function packageManifest(): Record<string, unknown> & {version: string} {
	return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<string, unknown> & {version: string};
}

/** The version in package.json. */
export function version(): string {
	return packageManifest().version;
}
