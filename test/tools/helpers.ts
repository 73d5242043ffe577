import {mkdtemp, realpath, rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import type {Tool, ToolContext, ToolPlan, ToolResult} from '../../source/core/tools/types.js';

/** A fresh canonical temp folder, removed after the test. */
export async function tempDir(t: TestContext, prefix = 'i-tools-test-'): Promise<string> {
	const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
	t.after(async () => rm(dir, {recursive: true, force: true}));
	return dir;
}

export function toolContext(workspace: string, options: {signal?: AbortSignal; outputLimit?: number} = {}): ToolContext {
	return {workspace, signal: options.signal ?? new AbortController().signal, outputLimit: options.outputLimit ?? 100_000};
}

/** Plan and run, as the core does after approval. */
export async function run(tool: Tool, args: Record<string, unknown>, context: ToolContext): Promise<ToolResult & {ask: ToolPlan['ask']}> {
	const planned = await tool.plan(args, context);
	return {...(await planned.run()), ask: planned.ask};
}

/** The smallest byte strings each supported image type is recognised by. */
export const signatures = {
	'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
	'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
	'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
	'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WEBPVP8 ')]),
} as const;
