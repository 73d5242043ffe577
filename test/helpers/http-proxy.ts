import {createServer, type IncomingMessage} from 'node:http';
import {createServer as createTlsServer} from 'node:https';
import type {AddressInfo, Socket} from 'node:net';
import {createProxy} from 'proxy';

/** A real HTTP proxy (the npm package `proxy`, which undici's own tests use) on 127.0.0.1, counting what it was asked. */
export interface TestProxy {
	/** http://127.0.0.1:PORT (https:// with the tls option) */
	url: string;
	port: number;
	/** TCP connections accepted. */
	connections: number;
	/** Absolute URLs of the requests it forwarded (http:// endpoints). */
	forwarded: string[];
	/** host:port of each CONNECT tunnel asked for (https:// endpoints). */
	tunnels: string[];
	/** The Proxy-Authorization header of each request or CONNECT. */
	authorizations: Array<string | undefined>;
	close(): Promise<void>;
}

export interface TestProxyOptions {
	authenticate?: (request: IncomingMessage) => boolean;
	/** Speak TLS to the client with this key and certificate (PEM): an https:// proxy. */
	tls?: {key: string; cert: string};
}

export async function startTestProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
	const server = createProxy(options.tls ? createTlsServer(options.tls) : createServer());
	if (options.authenticate) server.authenticate = options.authenticate;
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	// Tunnels leave the HTTP server's books once open: closing must end them too.
	const sockets = new Set<Socket>();
	const proxy: TestProxy = {
		url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
		port,
		connections: 0,
		forwarded: [],
		tunnels: [],
		authorizations: [],
		close: () =>
			new Promise<void>(resolve => {
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
			}),
	};
	// Beside the proxy's own listeners, which do the work.
	server.on('connection', (socket: Socket) => {
		proxy.connections++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('request', (request: IncomingMessage) => {
		proxy.forwarded.push(request.url ?? '');
		proxy.authorizations.push(request.headers['proxy-authorization']);
	});
	server.on('connect', (request: IncomingMessage) => {
		proxy.tunnels.push(request.url ?? '');
		proxy.authorizations.push(request.headers['proxy-authorization']);
	});
	return proxy;
}
