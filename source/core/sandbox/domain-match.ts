import {isIP} from 'node:net';

/** The highest TCP port an entry may pin. */
const MAX_PORT = 65_535;
/** Characters no host name or address in an entry may hold: they mean a URL, user info or a typo, and `new URL` would quietly read them as such. */
const FORBIDDEN_IN_HOST = /[\s/@?#\\%:[\]<>^|*]/;

/** One parsed entry of `sandbox.allowedDomains`. */
export interface DomainEntry {
	/** Lower case, no trailing dot, IDN as punycode, IPv6 without brackets; for a wildcard, the part after `*.`. */
	host: string;
	/** `*.host`: the host's subdomains at any depth, not the host itself. */
	wildcard: boolean;
	/** The one port allowed, or null for any. */
	port: number | null;
}

/**
 * A host as the URL standard reads it (lower case, punycode, IPv4 in dotted
 * decimal, IPv6 compressed), without brackets or a trailing dot, or null
 * when it is not a host; entries and requested hosts go through the same
 * reading, so `EXAMPLE.com.`, `example.com` and `0x7f.1` vs `127.0.0.1`
 * compare as the connection would see them.
 */
export function normalizeHost(raw: string): string | null {
	const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
	const ipv6 = isIP(bare) === 6;
	if (bare === '' || (!ipv6 && FORBIDDEN_IN_HOST.test(bare))) return null;
	let host: string;
	try {
		host = new URL(ipv6 ? `http://[${bare}]` : `http://${bare}`).hostname;
	} catch {
		// A zone index (fe80::1%eth0) is one thing the URL standard refuses.
		return null;
	}
	if (ipv6) return mappedIpv4(host.slice(1, -1));
	if (host.endsWith('.')) host = host.slice(0, -1);
	if (host === '' || host.split('.').includes('')) return null;
	return host;
}

/** `::ffff:7f00:1` as `127.0.0.1`: a resolver may answer an IPv4 address in its IPv6-mapped form, and an entry names it in dotted form. */
function mappedIpv4(address: string): string {
	const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
	if (!match) return address;
	const high = Number.parseInt(match[1]!, 16);
	const low = Number.parseInt(match[2]!, 16);
	return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Splits `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 address into its host and port text. */
function splitPort(entry: string): {host: string; port: string | undefined} | string {
	if (entry.startsWith('[')) {
		const match = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
		if (!match || isIP(match[1]!) !== 6) return 'has brackets that do not hold an IPv6 address, as in [::1]:8080';
		return {host: match[1]!, port: match[2]};
	}
	const colons = entry.split(':').length - 1;
	if (colons > 1) return isIP(entry) === 6 ? {host: entry, port: undefined} : 'is not a host name, an IP address or host:port';
	if (colons === 0) return {host: entry, port: undefined};
	const at = entry.indexOf(':');
	return {host: entry.slice(0, at), port: entry.slice(at + 1)};
}

/** An entry as written in settings, parsed, or a problem in words when it is not one. */
export function parseDomainEntry(entry: string): DomainEntry | string {
	if (typeof entry !== 'string') return 'is not a string';
	if (entry.trim() === '') return 'is empty';
	if (/\s/.test(entry)) return 'contains a space; write one host per entry';
	if (entry.includes('://')) return 'gives a scheme; write the host alone, as in example.com';
	if (entry.includes('/')) return 'gives a path; write the host alone, as in example.com';
	const parts = splitPort(entry);
	if (typeof parts === 'string') return parts;
	let port: number | null = null;
	if (parts.port !== undefined) {
		port = /^\d{1,5}$/.test(parts.port) ? Number(parts.port) : 0;
		if (port < 1 || port > MAX_PORT) return `has port "${parts.port}"; a port is a whole number from 1 to ${MAX_PORT}`;
	}
	const wildcard = parts.host.startsWith('*.');
	const name = wildcard ? parts.host.slice(2) : parts.host;
	if (wildcard && name === '') return "has '*.' with no domain after it, as in *.example.com";
	if (name.includes('*')) return "has a '*' that is not a whole first label; write *.example.com for the subdomains of example.com";
	if (name.startsWith('.')) return `starts with '.'; write *${name} for the subdomains of ${name.slice(1)}, or ${name.slice(1)} for the host itself`;
	const host = normalizeHost(name);
	if (host === null) return 'is not a host name or an IP address';
	if (wildcard && isIP(host) !== 0) return "puts '*.' before an IP address; '*.' goes before a domain name";
	return {host, wildcard, port};
}

/** The first problem among the entries of `sandbox.allowedDomains`, naming the entry, or null when all are fine. */
export function checkAllowedDomains(entries: readonly string[]): string | null {
	for (const [index, entry] of entries.entries()) {
		const parsed = parseDomainEntry(entry);
		if (typeof parsed === 'string') return `entry ${index + 1} (${JSON.stringify(entry)}) ${parsed}`;
	}
	return null;
}

/** The parsed list: answers whether a host (already through normalizeHost) may be reached on a port. */
export class AllowedDomains {
	readonly #entries: readonly DomainEntry[];

	/** Throws naming the first bad entry; callers check with checkAllowedDomains first to report it with the file. */
	constructor(entries: readonly string[]) {
		const problem = checkAllowedDomains(entries);
		if (problem !== null) throw new Error(`sandbox.allowedDomains: ${problem}`);
		this.#entries = entries.map(entry => parseDomainEntry(entry) as DomainEntry);
	}

	/** Whether some entry allows the host on this port, or on some port when port is null. */
	allows(host: string, port: number | null): boolean {
		const literal = isIP(host) !== 0;
		return this.#entries.some(entry => {
			if (port !== null && entry.port !== null && entry.port !== port) return false;
			// A wildcard names domains, so it never matches an IP address that happens to end the same way.
			if (entry.wildcard) return !literal && host.endsWith(`.${entry.host}`);
			return host === entry.host;
		});
	}
}
