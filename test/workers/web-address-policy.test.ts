import {test} from 'node:test';
import assert from 'node:assert/strict';
import {blockedKind, createAddressPolicy, parseNetwork} from '../../workers/web/address-policy.js';

test('the address policy: every non-public form is refused, IPv6 forms that carry IPv4 are judged by what they carry', () => {
	const table: Array<[string, string | undefined]> = [
		// IPv4: the listed ranges at their edges, and the public addresses just outside them.
		['0.0.0.0', 'unspecified ("this network")'],
		['127.0.0.1', 'loopback'],
		['127.255.255.254', 'loopback'],
		['126.255.255.255', undefined],
		['128.0.0.1', undefined],
		['10.0.0.0', 'private'],
		['10.255.255.255', 'private'],
		['11.0.0.0', undefined],
		['172.15.255.255', undefined],
		['172.16.0.0', 'private'],
		['172.31.255.255', 'private'],
		['172.32.0.0', undefined],
		['192.168.0.1', 'private'],
		['192.169.0.1', undefined],
		['169.254.169.254', 'link-local'],
		['100.63.255.255', undefined],
		['100.64.0.0', 'carrier-grade NAT (shared)'],
		['100.127.255.255', 'carrier-grade NAT (shared)'],
		['100.128.0.0', undefined],
		['224.0.0.1', 'multicast'],
		['239.255.255.255', 'multicast'],
		['255.255.255.255', 'broadcast'],
		['240.0.0.1', 'reserved'],
		['8.8.8.8', undefined],
		['93.184.216.34', undefined],
		// IPv6.
		['::', 'unspecified'],
		['::1', 'loopback'],
		['0:0:0:0:0:0:0:1', 'loopback'],
		['[::1]', 'loopback'],
		['fe80::1', 'link-local'],
		['fe80::1%eth0', 'link-local'],
		['febf:ffff::1', 'link-local'],
		['fec0::1', 'site-local'],
		['fc00::1', 'unique-local'],
		['fd12:3456::1', 'unique-local'],
		['fe00::1', undefined],
		['ff02::1', 'multicast'],
		['2001:4860:4860::8888', undefined],
		['2606:4700::1111', undefined],
		// IPv4 inside IPv6: mapped (dotted and hex), compatible, NAT64, 6to4.
		['::ffff:127.0.0.1', 'loopback, IPv4 inside IPv6'],
		['::ffff:7f00:1', 'loopback, IPv4 inside IPv6'],
		['0:0:0:0:0:ffff:7f00:0001', 'loopback, IPv4 inside IPv6'],
		['::FFFF:10.1.2.3', 'private, IPv4 inside IPv6'],
		['::ffff:a9fe:a9fe', 'link-local, IPv4 inside IPv6'],
		['::ffff:0.0.0.0', 'unspecified ("this network"), IPv4 inside IPv6'],
		['::ffff:8.8.8.8', undefined],
		['::127.0.0.1', 'loopback, IPv4 inside IPv6'],
		['::c0a8:1', 'private, IPv4 inside IPv6'],
		['64:ff9b::7f00:1', 'loopback, IPv4 inside IPv6'],
		['64:ff9b::808:808', undefined],
		['2002:7f00:1::', 'loopback, IPv4 inside IPv6'],
		['2002:0808:0808::1', undefined],
		// Not addresses at all.
		['localhost', 'not an IP address'],
		['127.1', 'not an IP address'],
		['', 'not an IP address'],
	];
	for (const [address, kind] of table) assert.equal(blockedKind(address), kind, address);
});

test('trust: a trusted host may reach its private addresses; a trusted network admits any host; nothing else is admitted', () => {
	const policy = createAddressPolicy({hosts: ['Intranet.Example', '127.0.0.1'], networks: ['10.0.0.0/8', 'fd00::/8']});
	assert.doesNotThrow(() => policy.check('intranet.example', '192.168.1.1'));
	assert.doesNotThrow(() => policy.check('intranet.example.', '192.168.1.1'));
	assert.doesNotThrow(() => policy.check('127.0.0.1', '127.0.0.1'));
	assert.doesNotThrow(() => policy.check('anything.example', '10.9.8.7'));
	assert.doesNotThrow(() => policy.check('anything.example', '::ffff:10.9.8.7'), 'a mapped form of a trusted IPv4 network');
	assert.doesNotThrow(() => policy.check('anything.example', 'fd00::5'));
	assert.doesNotThrow(() => policy.check('public.example', '8.8.8.8'));
	// Trusting the literal 127.0.0.1 trusts that URL host, not every name that resolves to it, nor its other forms.
	assert.throws(
		() => policy.check('evil.example', '127.0.0.1'),
		/^Error: refused to connect to 127\.0\.0\.1 \(evil\.example resolves to it\): not a public address \(loopback\); trust it in web\.json "trusted_hosts" or "trusted_networks"/,
	);
	assert.throws(() => policy.check('[::ffff:7f00:1]', '::ffff:7f00:1'), /not a public address \(loopback, IPv4 inside IPv6\)/);
	assert.throws(() => policy.check('11.example', '172.16.0.1'), /not a public address \(private\)/);
	assert.throws(() => policy.check('x.example', 'fc00::1'), /unique-local/);
	assert.throws(() => createAddressPolicy({hosts: [], networks: []}).check('127.0.0.1', '127.0.0.1'), /refused to connect to 127\.0\.0\.1: not a public address \(loopback\)/);
});

test('networks: CIDR or a bare address; anything else is not a network', () => {
	assert.deepEqual(parseNetwork('10.0.0.0/8'), {family: 4, value: 0x0a00_0000n, bits: 8});
	assert.equal(parseNetwork('127.0.0.1')?.bits, 32);
	assert.equal(parseNetwork('fd00::/8')?.bits, 8);
	for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8/8', 'example.com/8', '10.0.0.0/-1', '10.0.0/8']) assert.equal(parseNetwork(bad), undefined, bad);
});
