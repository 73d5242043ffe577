import {isIP} from 'node:net';

/** IPv4 ranges a listed name must not resolve to unless the address is listed too: [first octets, prefix length]. */
const PRIVATE_IPV4: ReadonlyArray<readonly [readonly number[], number]> = [
	[[0], 8], // "this network": 0.0.0.0 reaches the host itself on Linux
	[[10], 8],
	[[100, 64], 10], // shared address space (carrier NAT), also where some clouds put their metadata service
	[[127], 8],
	[[169, 254], 16], // link-local, where most clouds put their metadata service
	[[172, 16], 12],
	[[192, 168], 16],
];

/** Groups of an IPv6 address as eight 16-bit numbers (a trailing dotted IPv4 part and a zone index are allowed). */
function ipv6Groups(address: string): number[] {
	let text = address.split('%')[0]!;
	const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
	if (dotted) {
		const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
		text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head = '', tail] = text.split('::');
	const before = head === '' ? [] : head.split(':');
	const after = tail === undefined || tail === '' ? [] : tail.split(':');
	const zeros = tail === undefined ? 0 : 8 - before.length - after.length;
	return [...before, ...Array<string>(zeros).fill('0'), ...after].map(group => Number.parseInt(group, 16));
}

function isPrivateIpv4(address: string): boolean {
	const octets = address.split('.').map(Number);
	const value = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
	return PRIVATE_IPV4.some(([start, bits]) => {
		const base = ((start[0] ?? 0) << 24) | ((start[1] ?? 0) << 16);
		const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
		return (value & mask) >>> 0 === (base & mask) >>> 0;
	});
}

function isPrivateIpv6(address: string): boolean {
	const groups = ipv6Groups(address);
	const first = groups[0] ?? 0;
	const zeroTo = (end: number) => groups.slice(0, end).every(group => group === 0);
	if (zeroTo(7) && (groups[7] === 0 || groups[7] === 1)) return true; // :: and ::1
	if (zeroTo(5) && groups[5] === 0xffff) {
		const [high = 0, low = 0] = groups.slice(6);
		return isPrivateIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'));
	}
	if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7, unique local
	return (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0; // fe80::/10 link-local, fec0::/10 the old site-local
}

/**
 * Whether an address is loopback, private, link-local or unspecified: what
 * a listed name must not resolve to unless the address is listed too, so a
 * name under someone else's control cannot point the sandbox at this
 * machine or its network (DNS rebinding). Anything not an IP address counts
 * as private, so a bad lookup answer is refused rather than trusted.
 */
export function isPrivateAddress(address: string): boolean {
	const family = isIP(address);
	if (family === 4) return isPrivateIpv4(address);
	if (family === 6) return isPrivateIpv6(address);
	return true;
}
