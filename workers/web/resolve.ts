import {lookup as dnsLookup} from 'node:dns/promises';
import {isIP} from 'node:net';
import {normaliseHost} from './address-policy.js';

/** Every address a name has, as `dns.promises.lookup(name, {all: true})` gives them. */
export type Lookup = (name: string) => Promise<Array<{address: string; family: number}>>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemLookup: Lookup = async name => dnsLookup(name, {all: true, verbatim: true});

/**
 * The module's DNS path: an IP literal is itself; a name in web.json
 * `hosts` gets those addresses (no DNS query); any other name goes to the
 * lookup. The caller checks every address returned before connecting to
 * one of them, so what is checked is what is connected to.
 */
export function createResolver(hosts: Readonly<Record<string, readonly string[]>>, lookup: Lookup = systemLookup): (host: string) => Promise<string[]> {
	const table = new Map(Object.entries(hosts).map(([name, addresses]) => [normaliseHost(name), [...addresses]]));
	return async host => {
		const name = normaliseHost(host);
		if (isIP(name) !== 0) return [name];
		const fixed = table.get(name);
		if (fixed) return fixed;
		let found: Array<{address: string}>;
		try {
			found = await lookup(name);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			throw new Error(`cannot resolve ${name}: ${code === 'ENOTFOUND' ? 'no such host' : (code ?? (error as Error).message)}`);
		}

		if (found.length === 0) throw new Error(`cannot resolve ${name}: no addresses`);
		return found.map(entry => entry.address);
	};
}
