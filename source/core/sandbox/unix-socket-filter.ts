/**
 * The seccomp filter that keeps a sandboxed command off UNIX sockets
 * (docs/sandbox.md): `socket(AF_UNIX, …)` fails with EPERM, so a socket file
 * the sandbox can see (in the workspace, in /tmp) cannot be connected to.
 * `socketpair` stays allowed, since a pair reaches nothing outside. It is a
 * classic-BPF program for bubblewrap's `--seccomp FD`: each instruction is 8
 * bytes, little-endian (u16 code, u8 jt, u8 jf, u32 k), run against the
 * kernel's `struct seccomp_data` {int nr; u32 arch; u64 ip; u64 args[6]}.
 */

/** `seccomp_data.arch` of the 64-bit x86 and ARM ABIs (linux/audit.h). */
export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;
/** `__NR_socket` on x86_64 and on aarch64 (the generic table). */
const NR_SOCKET_X86_64 = 41;
const NR_SOCKET_AARCH64 = 198;
/** `__NR_io_uring_setup`, the same on both: io_uring can open sockets without the `socket` call the filter sees. */
const NR_IO_URING_SETUP = 425;
/** x86_64's x32 ABI marks its call numbers with this bit; its own `socket` would pass a check for 41, so every x32 call is refused. */
const X32_SYSCALL_BIT = 0x40000000;
/** `AF_UNIX`, the domain (first argument) `socket` is refused for. */
const AF_UNIX = 1;

/** What the filter answers: let the call through, or fail it with EPERM (1). */
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO_EPERM = 0x00050001;

/** Offsets in `struct seccomp_data`: the call's number, its ABI, and the low 32 bits of its first argument. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

/** Instruction codes: load a 32-bit word at an absolute offset, compare and jump, return a constant. */
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;

interface Instruction {
	code: number;
	jt: number;
	jf: number;
	k: number;
}

/** The ABIs a filter is built for, by Node's `process.arch`. */
const ABIS: Record<string, {arch: number; socket: number; x32: boolean}> = {
	x64: {arch: AUDIT_ARCH_X86_64, socket: NR_SOCKET_X86_64, x32: true},
	arm64: {arch: AUDIT_ARCH_AARCH64, socket: NR_SOCKET_AARCH64, x32: false},
};

/**
 * The filter's program for `arch` (Node's `process.arch`), null for an
 * architecture it is not built for. A call of another ABI (32-bit programs,
 * x32) is refused whole, since its own numbers would slip past the check.
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | null {
	const abi = ABIS[arch];
	if (!abi) return null;
	const load = (offset: number): Instruction => ({code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset});
	const ret = (value: number): Instruction => ({code: BPF_RET_K, jt: 0, jf: 0, k: value});
	// Jumps count the instructions to skip; the last two are ALLOW, then DENY.
	const program: Array<(index: number, length: number) => Instruction> = [
		() => load(OFFSET_ARCH),
		(index, length) => ({code: BPF_JEQ_K, jt: 0, jf: toDeny(index, length), k: abi.arch}),
		() => load(OFFSET_NR),
		...(abi.x32 ? [(index: number, length: number) => ({code: BPF_JGE_K, jt: toDeny(index, length), jf: 0, k: X32_SYSCALL_BIT})] : []),
		(index, length) => ({code: BPF_JEQ_K, jt: toDeny(index, length), jf: 0, k: NR_IO_URING_SETUP}),
		(index, length) => ({code: BPF_JEQ_K, jt: 0, jf: toAllow(index, length), k: abi.socket}),
		() => load(OFFSET_ARG0_LOW),
		(index, length) => ({code: BPF_JEQ_K, jt: toDeny(index, length), jf: 0, k: AF_UNIX}),
		() => ret(SECCOMP_RET_ALLOW),
		() => ret(SECCOMP_RET_ERRNO_EPERM),
	];
	return encode(program.map((make, index) => make(index, program.length)));
}

/** The jump from instruction `index` to the ALLOW return (second to last). */
function toAllow(index: number, length: number): number {
	return length - 2 - index - 1;
}

/** The jump from instruction `index` to the EPERM return (last). */
function toDeny(index: number, length: number): number {
	return length - 1 - index - 1;
}

function encode(program: readonly Instruction[]): Buffer {
	const bytes = Buffer.alloc(program.length * 8);
	for (const [index, {code, jt, jf, k}] of program.entries()) {
		bytes.writeUInt16LE(code, index * 8);
		bytes.writeUInt8(jt, index * 8 + 2);
		bytes.writeUInt8(jf, index * 8 + 3);
		bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
	}

	return bytes;
}
