/** The port the domain proxy has inside a sandbox, where socat carries it to the proxy's socket. */
export const PROXY_PORT = 3128;

/**
 * Run in the sandbox before the program: start socat on the proxy's port
 * (its stdio away from the program's), wait until it listens (the
 * sandbox's own network has nothing else to show), set the proxy variables,
 * then become the program. `$1` is the socket, the rest the program.
 */
const BRIDGE = [
	'sock=$1; shift',
	// Nor the filter's descriptor (sandbox-command.ts), which is the inner bubblewrap's.
	`socat TCP-LISTEN:${PROXY_PORT},fork,reuseaddr,bind=127.0.0.1 "UNIX-CONNECT:$sock" </dev/null >/dev/null 2>&1 3<&- &`,
	`n=0; while [ $n -lt 200 ] && ! grep -q ':${PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A' /proc/net/tcp 2>/dev/null; do sleep 0.01; n=$((n + 1)); done`,
	// NODE_USE_ENV_PROXY: Node's own fetch and http take the proxy variables only when asked (Node 22.21, 24.5 and later).
	`p=http://127.0.0.1:${PROXY_PORT}; export HTTP_PROXY=$p HTTPS_PROXY=$p http_proxy=$p https_proxy=$p NO_PROXY=localhost,127.0.0.1 no_proxy=localhost,127.0.0.1 NODE_USE_ENV_PROXY=1`,
	'exec "$@"',
].join('\n');

/** The command line that runs `argv` in a sandbox whose network is the domain proxy at `socket` (bound in by bwrap-argv.ts). */
export function throughProxy(socket: string, argv: readonly string[]): string[] {
	return ['/bin/sh', '-c', BRIDGE, 'i-sandbox', socket, ...argv];
}
