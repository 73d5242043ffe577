// The UNIX-socket filter's program (unix-socket-filter.ts), run here by a
// small classic-BPF interpreter over the kernel's seccomp_data, for each
// architecture it is built for; the real kernel runs it in
// unix-sockets.test.ts.
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {AUDIT_ARCH_AARCH64, AUDIT_ARCH_X86_64, SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO_EPERM, unixSocketFilter} from '../../source/core/sandbox/unix-socket-filter.js';

/** What the program answers for a call: its number, ABI and first argument (seccomp_data: nr at 0, arch at 4, args[0] at 16). */
function runFilter(program: Buffer, call: {nr: number; arch: number; arg0: number}): number {
	const data = Buffer.alloc(64);
	data.writeUInt32LE(call.nr >>> 0, 0);
	data.writeUInt32LE(call.arch >>> 0, 4);
	data.writeUInt32LE(call.arg0 >>> 0, 16);
	let accumulator = 0;
	for (let pc = 0; pc < program.length / 8; pc++) {
		const [code, jt, jf, k] = [program.readUInt16LE(pc * 8), program.readUInt8(pc * 8 + 2), program.readUInt8(pc * 8 + 3), program.readUInt32LE(pc * 8 + 4)];
		if (code === 0x20) accumulator = data.readUInt32LE(k);
		else if (code === 0x15) pc += accumulator === k ? jt : jf;
		else if (code === 0x35) pc += accumulator >= k ? jt : jf;
		else if (code === 0x06) return k;
		else throw new Error(`instruction ${pc}: code ${code.toString(16)} is not one the filter uses`);
	}

	throw new Error('the program ran off its end');
}

const EPERM = SECCOMP_RET_ERRNO_EPERM;
const ALLOW = SECCOMP_RET_ALLOW;

test('on x86_64, socket(AF_UNIX) fails with EPERM; other domains, socketpair and other calls pass; x32, io_uring and other ABIs are refused', () => {
	const program = unixSocketFilter('x64')!;
	assert.equal(program.length % 8, 0);
	const call = (nr: number, arg0 = 0, arch = AUDIT_ARCH_X86_64) => runFilter(program, {nr, arch, arg0});
	assert.equal(call(41, 1), EPERM, 'socket(AF_UNIX)');
	assert.equal(call(41, 2), ALLOW, 'socket(AF_INET)');
	assert.equal(call(41, 10), ALLOW, 'socket(AF_INET6)');
	assert.equal(call(41, 0), ALLOW, 'socket(AF_UNSPEC), one below AF_UNIX');
	assert.equal(call(53, 1), ALLOW, 'socketpair(AF_UNIX) reaches nothing');
	assert.equal(call(42, 1), ALLOW, 'connect on a socket the program already has');
	assert.equal(call(0x40000000 + 41, 1), EPERM, 'socket in the x32 ABI');
	assert.equal(call(0x40000000, 0), EPERM, 'the first x32 number');
	assert.equal(call(0x3fffffff, 0), ALLOW, 'one below the x32 bit');
	assert.equal(call(425), EPERM, 'io_uring_setup');
	assert.equal(call(41, 1, 0x40000003), EPERM, 'a 32-bit (i386) program');
});

test('on aarch64, socket(AF_UNIX) is call 198 and fails with EPERM; x86_64 numbers mean nothing there', () => {
	const program = unixSocketFilter('arm64')!;
	const call = (nr: number, arg0 = 0, arch = AUDIT_ARCH_AARCH64) => runFilter(program, {nr, arch, arg0});
	assert.equal(call(198, 1), EPERM);
	assert.equal(call(198, 2), ALLOW);
	assert.equal(call(199, 1), ALLOW, 'socketpair(AF_UNIX)');
	assert.equal(call(41, 1), ALLOW, 'call 41 is not socket on aarch64');
	assert.equal(call(0x40000000 + 41, 1), ALLOW, 'no x32 ABI on aarch64');
	assert.equal(call(425), EPERM, 'io_uring_setup');
	assert.equal(call(198, 1, AUDIT_ARCH_X86_64), EPERM, 'another ABI');
	assert.equal(call(198, 1, 0x40000028), EPERM, 'a 32-bit ARM program');
});

test('an architecture the filter is not built for gets none', () => {
	assert.equal(unixSocketFilter('ia32'), null);
	assert.equal(unixSocketFilter('riscv64'), null);
});
