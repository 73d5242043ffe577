// A line-mode `i --json` process driven line by line, with an extension that
// delivers on request: its tool `deliver` calls sendMessage / appendEntry
// while it runs (during a tool batch), and a SIGUSR2 makes it deliver while
// the agent is idle (between prompts). Results come back as JSON lines on
// stderr (`DELIVERED {...}`), so the tests wait on events, never on time.
import {spawn, type ChildProcess} from 'node:child_process';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {binPath, makeSandbox, type Sandbox} from '../helpers/cli.js';
import type {MockProvider} from '../fixtures/mock-provider.js';

export const deliveringExtension = `import {readFileSync} from 'node:fs';
const requestsFile = process.env.DELIVERY_REQUESTS;
async function deliver(api, list) {
	const results = [];
	for (const request of list) {
		const {action = 'sendMessage', ...rest} = request;
		try {
			results.push(await api.runtime[action](rest));
		} catch (error) {
			results.push({error: error.code ?? 'thrown', message: error.message});
		}
	}
	return results;
}
export default function register(api) {
	api.registerTool({
		name: 'deliver',
		description: 'delivers what it is given',
		parameters: {type: 'object', properties: {requests: {type: 'array'}}},
		async execute(params, ctx) {
			const results = await deliver(api, params.requests ?? []);
			console.error('DELIVERED ' + JSON.stringify({during: 'tool', results}));
			// Held until cancelled: the test kills the process in the middle of the batch.
			if (params.hang) await new Promise(resolve => ctx.signal.addEventListener('abort', resolve));
			return {output: 'delivered ' + results.length};
		},
	});
	api.registerEventHandler('SessionStart', async () => {
		if (!process.env.DELIVERY_AT_START) return;
		const results = await deliver(api, JSON.parse(readFileSync(process.env.DELIVERY_AT_START, 'utf8')));
		console.error('DELIVERED ' + JSON.stringify({during: 'start', results}));
	});
	process.on('SIGUSR2', async () => {
		const results = await deliver(api, JSON.parse(readFileSync(requestsFile, 'utf8')));
		console.error('DELIVERED ' + JSON.stringify({during: 'idle', results}));
	});
}
`;

export interface LineSession {
	box: Sandbox;
	child: ChildProcess;
	events(): Array<Record<string, any>>;
	stderr(): string;
	/** The results of each delivery round, in order. */
	deliveries(): Array<{during: string; results: any[]}>;
	send(line: string): void;
	/** Delivers `requests` while idle (SIGUSR2) and resolves with their results. */
	idle(requests: unknown[]): Promise<any[]>;
	waitFor(check: () => boolean, what: string): Promise<void>;
	/** Turns finished so far (done events). */
	done(): number;
	end(): Promise<{code: number | null; signal: NodeJS.Signals | null}>;
}

export function writeExtension(box: Sandbox): string {
	const file = join(box.root, 'deliver.mjs');
	writeFileSync(file, deliveringExtension);
	return file;
}

export function startLineSession(mock: MockProvider, options: {box?: Sandbox; args?: string[]; env?: NodeJS.ProcessEnv} = {}): LineSession {
	const box = options.box ?? makeSandbox();
	box.writeConfig({protocol: 'openai', base_url: mock.baseUrl('openai'), model: 'm'});
	const file = writeExtension(box);
	const requestsFile = join(box.root, 'requests.json');
	const child = spawn(process.execPath, [binPath, '--json', '--yolo', '--extension', file, '-C', box.workspace, ...(options.args ?? [])], {
		env: {...box.env, DELIVERY_REQUESTS: requestsFile, ...options.env},
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	const listeners = new Set<() => void>();
	const changed = () => {
		for (const listener of listeners) listener();
	};

	child.stdout!.setEncoding('utf8').on('data', chunk => {
		stdout += chunk;
		changed();
	});
	child.stderr!.setEncoding('utf8').on('data', chunk => {
		stderr += chunk;
		changed();
	});
	const closed = new Promise<{code: number | null; signal: NodeJS.Signals | null}>(resolve =>
		child.on('close', (code, signal) => {
			resolve({code, signal});
			changed();
		}),
	);
	const events = () =>
		stdout
			.split('\n')
			.filter(line => line.startsWith('{'))
			.map(line => JSON.parse(line) as Record<string, any>);
	const deliveries = () =>
		stderr
			.split('\n')
			.filter(line => line.startsWith('DELIVERED '))
			.map(line => JSON.parse(line.slice('DELIVERED '.length)));
	const waitFor = async (check: () => boolean, what: string) =>
		new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => {
				listeners.delete(listener);
				reject(new Error(`timed out waiting for ${what}\nstdout: ${stdout}\nstderr: ${stderr}`));
			}, 15_000);
			const listener = () => {
				if (!check()) return;
				clearTimeout(timer);
				listeners.delete(listener);
				resolve();
			};

			listeners.add(listener);
			listener();
		});
	return {
		box,
		child,
		events,
		stderr: () => stderr,
		deliveries,
		send: line => child.stdin!.write(`${line}\n`),
		async idle(requests) {
			const before = deliveries().length;
			writeFileSync(requestsFile, JSON.stringify(requests));
			child.kill('SIGUSR2');
			await waitFor(() => deliveries().length > before, 'the idle delivery');
			return deliveries()[before]!.results;
		},
		waitFor,
		done: () => events().filter(event => event.type === 'done').length,
		async end() {
			child.stdin!.end();
			return closed;
		},
	};
}

/** The tool call that makes the extension deliver `requests` while it runs. */
export function deliverCall(id: string, requests: unknown[], extra: Record<string, unknown> = {}) {
	return {toolCalls: [{id, name: 'deliver', arguments: JSON.stringify({requests, ...extra})}]};
}

/** The user-role texts of a recorded request, in order (a string content, or its text blocks joined). */
export function userTexts(body: any): string[] {
	return (body.messages as Array<{role: string; content: unknown}>)
		.filter(message => message.role === 'user')
		.map(message => (typeof message.content === 'string' ? message.content : (message.content as Array<{type: string; text?: string}>).map(part => part.text ?? `[${part.type}]`).join(' ')));
}
