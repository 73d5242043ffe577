import {connect, isIP, type Socket} from 'node:net';
import {type AllowedDomains, normalizeHost} from './domain-match.js';
import {isPrivateAddress} from './private-address.js';

/** Where a tunnel or a request is going, host through normalizeHost. */
export interface Target {
	host: string;
	port: number;
}

/** What reaching a target came to: an open connection, a refusal by the list, or a failure to resolve or connect. */
export type Reach = {kind: 'open'; socket: Socket} | {kind: 'refused'; refusal: string; message: string} | {kind: 'failed'; status: 502 | 504; reason: string};

export interface ReachOptions {
	rules: AllowedDomains;
	lookup: (host: string) => Promise<string>;
	/** Resolving and connecting together, in milliseconds. */
	timeoutMs: number;
	/** Called with the upstream socket as soon as it exists, so close() can destroy a connection still being made. */
	track: (socket: Socket) => void;
}

/** The settings file the refusal text points the person to. */
const SETTINGS_HINT = 'sandbox.allowedDomains (settings.json)';
const TIMED_OUT = Symbol('timed out');

/** `host:port`, with brackets around an IPv6 address. */
export function hostPort(host: string, port: number): string {
	return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

function describe(error: unknown): string {
	if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
	return String(error);
}

/** The promise's value, or TIMED_OUT when the deadline passes first. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof TIMED_OUT> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<typeof TIMED_OUT>(resolve => {
		// Unreferenced: the client's socket keeps i running while it waits, and a proxy closed meanwhile should not hold i up.
		timer = setTimeout(() => resolve(TIMED_OUT), Math.max(deadline - Date.now(), 0)).unref();
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function connectBefore(address: string, port: number, deadline: number, options: ReachOptions): Promise<Reach> {
	return new Promise(resolve => {
		const socket = connect({host: address, port});
		options.track(socket);
		const where = hostPort(address, port);
		const timer = setTimeout(
			() => {
				socket.destroy();
				resolve({kind: 'failed', status: 504, reason: `connecting to ${where} took longer than ${options.timeoutMs} ms`});
			},
			Math.max(deadline - Date.now(), 0),
		).unref();
		// Stays for the socket's life: an error after the connection opened shows as 'close', which the caller handles.
		socket.on('error', error => {
			clearTimeout(timer);
			resolve({kind: 'failed', status: 502, reason: `cannot connect to ${where}: ${describe(error)}`});
		});
		socket.once('connect', () => {
			clearTimeout(timer);
			resolve({kind: 'open', socket});
		});
		// close() destroys a connection still being made; without this the caller would wait for the timeout.
		socket.once('close', () => {
			clearTimeout(timer);
			resolve({kind: 'failed', status: 502, reason: `the connection to ${where} closed before it opened`});
		});
	});
}

/**
 * Checks a target against the list, resolves a name, refuses a listed name
 * whose address is private unless that address is listed too, and connects
 * to the address it checked (never resolving again, so the answer checked
 * is the one used).
 */
export async function reachUpstream(target: Target, options: ReachOptions): Promise<Reach> {
	const {host, port} = target;
	if (!options.rules.allows(host, port)) {
		const named = options.rules.allows(host, null) ? hostPort(host, port) : host;
		return {kind: 'refused', refusal: `${hostPort(host, port)} (not in sandbox.allowedDomains)`, message: `i sandbox: ${named} is not in ${SETTINGS_HINT}`};
	}
	const deadline = Date.now() + options.timeoutMs;
	if (isIP(host) !== 0) return connectBefore(host, port, deadline, options);
	let address: string | typeof TIMED_OUT;
	try {
		address = await beforeDeadline(options.lookup(host), deadline);
	} catch (error) {
		return {kind: 'failed', status: 502, reason: `cannot resolve ${host}: ${describe(error)}`};
	}
	if (address === TIMED_OUT) return {kind: 'failed', status: 504, reason: `resolving ${host} took longer than ${options.timeoutMs} ms`};
	const checked = isIP(address) === 0 ? null : normalizeHost(address);
	if (checked === null) return {kind: 'failed', status: 502, reason: `resolving ${host} gave ${JSON.stringify(address)}, not an IP address`};
	if (isPrivateAddress(checked) && !options.rules.allows(checked, port)) {
		return {
			kind: 'refused',
			refusal: `${hostPort(host, port)} (resolves to ${checked}, a private address not in sandbox.allowedDomains)`,
			message: `i sandbox: ${host} resolves to ${checked}, a private address; list ${checked} in ${SETTINGS_HINT} to allow it`,
		};
	}
	return connectBefore(checked, port, deadline, options);
}
