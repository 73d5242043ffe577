import {existsSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as delay} from 'node:timers/promises';
import {runCli} from '../helpers/cli.js';
import type {Folders, FrameWorker} from './frame-worker.js';

/** Registers the workspace the way the CLI does and returns its ID, so cache-report finds the same state folder. */
export async function registerWorkspace(folders: Folders): Promise<string> {
	const run = await runCli(['--runtime', 'paths', '-C', folders.workspace, '--json'], {env: folders.env});
	if (run.code !== 0) throw new Error(run.stderr);
	return (JSON.parse(run.stdout) as {workspace_id: string}).workspace_id;
}

export function statsFile(folders: Folders, workspaceId: string, stats = 'metrics/cache-stats.json'): string {
	return join(folders.data, 'workspaces', workspaceId, stats);
}

export async function readStatsFile(folders: Folders, workspaceId: string): Promise<Record<string, any>> {
	return JSON.parse(await readFile(statsFile(folders, workspaceId), 'utf8')) as Record<string, any>;
}

/**
 * The stats file once `ready` says it shows what the test expects: the
 * worker writes after its answers, off their path, so a test that reads
 * while the worker runs waits for the write (10 s at most).
 */
export async function statsWhen(folders: Folders, workspaceId: string, ready: (stats: Record<string, any>) => boolean, stats?: string): Promise<Record<string, any>> {
	const deadline = Date.now() + 10_000;
	for (;;) {
		let read: Record<string, any> | undefined;
		try {
			read = JSON.parse(await readFile(statsFile(folders, workspaceId, stats), 'utf8')) as Record<string, any>;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		}

		// Held from before the rename until the digest is written (written-digest.ts): a file read while it is
		// held is in place, but its writer is not done, and a request sent now would find the write under way.
		if (read !== undefined && ready(read) && !existsSync(`${statsFile(folders, workspaceId, stats)}.lock`)) return read;
		if (Date.now() > deadline) throw new Error(`the stats file never got there; last read: ${JSON.stringify(read)?.slice(0, 300)}`);
		await delay(10);
	}
}

export function chatBody(messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {model: 'm', stream: true, messages, ...extra};
}

export function beforeRequest(body: Record<string, unknown>, options: {protocol?: string; model?: string; request_meta?: Record<string, unknown>} = {}) {
	return {
		url: 'http://127.0.0.1:1/v1/chat/completions',
		body,
		protocol: options.protocol ?? 'openai',
		model: options.model ?? 'm',
		budget: null,
		...(options.request_meta ? {request_meta: options.request_meta} : {}),
	};
}

let nextId = 1;

/** Sends one frame for `workspaceId` and returns its data, failing on an error frame. */
export async function hook(worker: FrameWorker, workspaceId: string, event: string, data: Record<string, unknown>): Promise<Record<string, any>> {
	const id = nextId++;
	const response = await worker.request({id, event, workspace_id: workspaceId, data});
	if (response.error !== undefined) throw new Error(`${event}: error frame: ${response.error}`);
	if (response.id !== id) throw new Error(`answer ${response.id} to request ${id}`);
	return response.data as Record<string, any>;
}

/** One request's before_request then after_response with `usage` (the provider's raw object); returns the prepared data. */
export async function roundTrip(worker: FrameWorker, workspaceId: string, body: Record<string, unknown>, usage: unknown, protocol = 'openai', model = 'm') {
	const prepared = await hook(worker, workspaceId, 'before_request', beforeRequest(body, {protocol, model}));
	const message = {role: 'assistant', content: 'ok'};
	await hook(worker, workspaceId, 'after_response', {response: {protocol, model, message, finish_reason: 'stop', usage}, request_meta: prepared.request_meta});
	return prepared;
}
