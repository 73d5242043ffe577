import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import type {Sandbox} from './cli.js';

/** Every file under `root` but `except`, with the text of each. */
export function everythingWritten(root: string, except: string[] = []): Array<{path: string; text: string}> {
	const files: Array<{path: string; text: string}> = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, {withFileTypes: true})) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.isFile() && !except.includes(path) && statSync(path).size < 16 * 1024 * 1024) files.push({path, text: readFileSync(path, 'latin1')});
		}
	};

	walk(root);
	return files;
}

/** None of `secrets` in any of `places` (outputs, events) nor in any file under the sandbox but `except` (auth.json, which holds them). */
export function assertNoSecret(secrets: readonly string[], places: Record<string, string>, box: Sandbox, except: string[] = []): void {
	for (const secret of secrets) {
		assert.ok(secret.length >= 8, `"${secret}" is too short to look for`);
		for (const [where, text] of Object.entries(places)) assert.ok(!text.includes(secret), `a secret is in ${where}:\n${text.slice(0, 2000)}`);
		for (const file of everythingWritten(box.root, except)) assert.ok(!file.text.includes(secret), `a secret is in ${file.path}`);
	}
}
