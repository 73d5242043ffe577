import {test} from 'node:test';
import assert from 'node:assert/strict';
import {AllowedDomains, normalizeHost} from '../../source/core/sandbox/domain-match.js';
import {isPrivateAddress} from '../../source/core/sandbox/private-address.js';

test('a host is read as the connection would see it: case, trailing dot, IPv4 forms, IPv6 brackets and mapped IPv4', () => {
	assert.equal(normalizeHost('API.Example.COM.'), 'api.example.com');
	assert.equal(normalizeHost('0x7f.1'), '127.0.0.1');
	assert.equal(normalizeHost('[0:0:0:0:0:0:0:1]'), '::1');
	assert.equal(normalizeHost('::ffff:127.0.0.1'), '127.0.0.1');
	assert.equal(normalizeHost('bücher.example'), 'xn--bcher-kva.example');
	for (const bad of ['', '.', 'a..b', 'user@host', 'a b', 'host/x', '*.x']) assert.equal(normalizeHost(bad), null, bad);
});

test('an exact entry matches that host only, case-insensitively and without a trailing dot', () => {
	const rules = new AllowedDomains(['Registry.npmjs.org.']);
	assert.equal(rules.allows('registry.npmjs.org', 443), true);
	assert.equal(rules.allows('npmjs.org', 443), false);
	assert.equal(rules.allows('x.registry.npmjs.org', 443), false);
	assert.equal(rules.allows('evilregistry.npmjs.org', 443), false);
});

test('a wildcard matches subdomains at any depth, not the domain itself or a look-alike', () => {
	const rules = new AllowedDomains(['*.github.com']);
	assert.equal(rules.allows('api.github.com', 443), true);
	assert.equal(rules.allows('a.b.github.com', 443), true);
	assert.equal(rules.allows('github.com', 443), false);
	assert.equal(rules.allows('evilgithub.com', 443), false);
});

test('a port-pinned entry allows that port only; an entry without a port allows any; null asks about any port', () => {
	const rules = new AllowedDomains(['pinned.example:8443', 'open.example', '[::1]:9000']);
	assert.equal(rules.allows('pinned.example', 8443), true);
	assert.equal(rules.allows('pinned.example', 443), false);
	assert.equal(rules.allows('pinned.example', null), true);
	assert.equal(rules.allows('open.example', 1), true);
	assert.equal(rules.allows('::1', 9000), true);
	assert.equal(rules.allows('::1', 9001), false);
});

test('a bad entry makes the list throw, naming it', () => {
	assert.throws(() => new AllowedDomains(['ok.example', 'http://x']), /sandbox\.allowedDomains: entry 2 \("http:\/\/x"\) gives a scheme/);
});

test('private addresses, at the edge of each range', () => {
	const privateOnes = ['0.0.0.0', '0.255.255.255', '10.0.0.0', '10.255.255.255', '100.64.0.0', '100.127.255.255', '127.0.0.1', '127.255.255.255'];
	privateOnes.push('169.254.0.0', '169.254.169.254', '172.16.0.0', '172.31.255.255', '192.168.0.0', '192.168.255.255');
	privateOnes.push('::', '::1', 'fc00::', 'fdff:ffff::1', 'fe80::1', 'febf::1', 'fec0::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', 'fe80::1%eth0');
	for (const address of privateOnes) assert.equal(isPrivateAddress(address), true, address);
	const publicOnes = ['1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '169.253.255.255'];
	publicOnes.push('169.255.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '8.8.8.8');
	publicOnes.push('::2', 'fbff::1', 'fe00::1', 'ff02::1', '2001:4860:4860::8888', '::ffff:8.8.8.8');
	for (const address of publicOnes) assert.equal(isPrivateAddress(address), false, address);
	assert.equal(isPrivateAddress('not-an-address'), true);
});
