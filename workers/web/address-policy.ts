import {isIP} from 'node:net';

/** An IP address as a number of its family's width. */
interface Ip {
	family: 4 | 6;
	value: bigint;
}

interface Network extends Ip {
	bits: number;
}

/** Address ranges refused unless trusted (spec/platform.md §9), each named for the error message. */
const blockedRanges: ReadonlyArray<[string, string]> = [
	['0.0.0.0/8', 'unspecified ("this network")'],
	['10.0.0.0/8', 'private'],
	['100.64.0.0/10', 'carrier-grade NAT (shared)'],
	['127.0.0.0/8', 'loopback'],
	['169.254.0.0/16', 'link-local'],
	['172.16.0.0/12', 'private'],
	['192.0.0.0/24', 'IETF protocol assignments'],
	['192.168.0.0/16', 'private'],
	['198.18.0.0/15', 'benchmarking'],
	['224.0.0.0/4', 'multicast'],
	['255.255.255.255/32', 'broadcast'],
	['240.0.0.0/4', 'reserved'],
	['::/128', 'unspecified'],
	['::1/128', 'loopback'],
	['fe80::/10', 'link-local'],
	['fec0::/10', 'site-local'],
	['fc00::/7', 'unique-local'],
	['ff00::/8', 'multicast'],
	['100::/64', 'discard-only'],
];

const blocked = blockedRanges.map(([cidr, kind]) => ({network: parseNetwork(cidr)!, kind}));

/** IPv6 prefixes that carry an IPv4 address in their low 32 bits: mapped, compatible, NAT64. */
const embeddingV4 = ['::ffff:0:0/96', '::/96', '64:ff9b::/96', '64:ff9b:1::/48'].map(cidr => parseNetwork(cidr)!);
/** 6to4 carries its IPv4 address in bits 16–47. */
const sixToFour = parseNetwork('2002::/16')!;

/**
 * Why an address may not be reached unless trusted ("loopback", "private" …),
 * or undefined for a public address. IPv6 forms that embed an IPv4 address
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `::127.0.0.1`, NAT64, 6to4) are
 * judged by that address too. Anything that is not an IP address is refused.
 */
export function blockedKind(address: string): string | undefined {
	const ip = parseIp(address);
	if (!ip) return 'not an IP address';
	for (const {network, kind} of blocked) if (contains(network, ip)) return kind;
	const inner = embeddedV4(ip);
	if (!inner) return undefined;
	const kind = blockedKind(formatV4(inner.value));
	return kind === undefined ? undefined : `${kind}, IPv4 inside IPv6`;
}

/** The IPv4 address an IPv6 address carries, if it is of a form that carries one. */
function embeddedV4(ip: Ip): Ip | undefined {
	if (ip.family !== 6) return undefined;
	if (embeddingV4.some(network => contains(network, ip))) return {family: 4, value: ip.value & 0xffff_ffffn};
	if (contains(sixToFour, ip)) return {family: 4, value: (ip.value >> 80n) & 0xffff_ffffn};
	return undefined;
}

export interface TrustList {
	/** Lower-case host names or IP literals as written in a URL. */
	hosts: readonly string[];
	networks: readonly string[];
}

/** Answers whether a host's addresses may be reached: public ones always, others only when trusted. */
export interface AddressPolicy {
	/** Throws, naming the host, the address and its kind, when an address may not be reached. */
	check(host: string, address: string): void;
}

export function createAddressPolicy(trust: TrustList): AddressPolicy {
	const hosts = new Set(trust.hosts.map(normaliseHost));
	const networks = trust.networks.map(cidr => parseNetwork(cidr)!);
	return {
		check(host, address) {
			const kind = blockedKind(address);
			if (kind === undefined) return;
			if (hosts.has(normaliseHost(host))) return;
			const ip = parseIp(address);
			if (ip && networks.some(network => contains(network, ip) || (embeddedV4(ip) !== undefined && contains(network, embeddedV4(ip)!)))) return;
			const via = normaliseHost(host) === normaliseHost(address) ? '' : ` (${host} resolves to it)`;
			throw new Error(`refused to connect to ${address}${via}: not a public address (${kind}); trust it in web.json "trusted_hosts" or "trusted_networks" to allow it`);
		},
	};
}

/** Host names compare without case, brackets or a trailing dot. */
export function normaliseHost(host: string): string {
	return host
		.replace(/^\[(.*)\]$/, '$1')
		.replace(/\.$/, '')
		.toLowerCase();
}

/** "10.0.0.0/8", "fd00::/8" or a bare address (a network of one); undefined if it is neither. */
export function parseNetwork(text: string): Network | undefined {
	const [address = '', bitsText, ...rest] = text.split('/');
	if (rest.length > 0) return undefined;
	const ip = parseIp(address);
	if (!ip) return undefined;
	const width = ip.family === 4 ? 32 : 128;
	const bits = bitsText === undefined ? width : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : Number.NaN;
	if (!(bits >= 0 && bits <= width)) return undefined;
	return {...ip, bits};
}

function contains(network: Network, ip: Ip): boolean {
	if (network.family !== ip.family) return false;
	const shift = BigInt((network.family === 4 ? 32 : 128) - network.bits);
	return ip.value >> shift === network.value >> shift;
}

/** An IPv4 or IPv6 address (a zone index like `%eth0` is ignored); undefined for anything else. */
export function parseIp(text: string): Ip | undefined {
	const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%[\w.-]+$/, '');
	const family = isIP(address);
	if (family === 4) return {family: 4, value: v4Value(address)};
	if (family !== 6) return undefined;
	let value = 0n;
	for (const group of expandV6(address)) value = (value << 16n) | BigInt(group);
	return {family: 6, value};
}

function v4Value(address: string): bigint {
	return address.split('.').reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);
}

function formatV4(value: bigint): string {
	return [24n, 16n, 8n, 0n].map(shift => String((value >> shift) & 0xffn)).join('.');
}

/** The eight 16-bit groups of a valid IPv6 address (checked by `isIP` first). */
function expandV6(address: string): number[] {
	let text = address.toLowerCase();
	// A trailing dotted IPv4 part stands for the last two groups.
	const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (dotted) {
		const value = Number(v4Value(dotted[1]!));
		text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
	}

	const [head = '', tail] = text.split('::');
	const parse = (part: string) => (part === '' ? [] : part.split(':').map(group => Number.parseInt(group, 16)));
	const first = parse(head);
	if (tail === undefined) return first;
	const last = parse(tail);
	return [...first, ...Array.from({length: 8 - first.length - last.length}, () => 0), ...last];
}
