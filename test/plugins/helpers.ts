import assert from 'node:assert/strict';
import {chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import type {TestContext} from 'node:test';
import type {PlatformDirs} from '../../source/core/config/dirs.js';
import {loadModelConfig} from '../../source/core/config/load-config.js';
import {UsageError} from '../../source/core/errors.js';
import {loadPlugins} from '../../source/core/plugins/load-plugins.js';

/** A fresh canonical temp folder with the four platform folders, removed after the test. */
export function tempRoot(t: TestContext): {root: string; dirs: PlatformDirs} {
	const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-plugins-')));
	t.after(() => rmSync(root, {recursive: true, force: true}));
	const dirs = {
		config_dir: join(root, 'config'),
		data_dir: join(root, 'data'),
		cache_dir: join(root, 'cache'),
		runtime_dir: join(root, 'runtime'),
	};
	mkdirSync(dirs.config_dir);
	return {root, dirs};
}

export function writeJson(path: string, value: unknown): string {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
	return path;
}

/** An executable shell script (a worker stand-in; the tests never run it). */
export function executable(path: string): string {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, '#!/bin/sh\nexit 0\n');
	chmodSync(path, 0o755);
	return path;
}

/** The argv official workers are generated with in these tests: node and a real file. */
export function fakeProgram(root: string): string[] {
	return [process.execPath, executable(join(root, 'program', 'cli.js'))];
}

/** Writes config.json in the config folder listing `plugins` (and any other fields), then loads its plugins as the core does. */
export async function load(dirs: PlatformDirs, plugins: string[], extra: Record<string, unknown> = {}, program?: string[]) {
	const path = writeJson(join(dirs.config_dir, 'config.json'), {protocol: 'openai', model: 'm', plugins, ...extra});
	return loadPlugins(loadModelConfig(path, true), dirs, program ? {program} : {});
}

/** Asserts `promise` rejects with a UsageError whose message matches every pattern (and contains every string). */
export async function rejectsWith(promise: Promise<unknown>, ...expected: Array<RegExp | string>): Promise<string> {
	let message = '';
	await assert.rejects(promise, (error: unknown) => {
		assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
		message = error.message;
		for (const item of expected) {
			if (typeof item === 'string') assert.ok(message.includes(item), `"${message}" should contain "${item}"`);
			else assert.match(message, item);
		}

		return true;
	});
	return message;
}
