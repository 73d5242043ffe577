// mcp-auth.json holds tokens: refused like auth.json when others can read
// it or write to its folder (auth-file.ts refuseShared).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, mkdtempSync, readdirSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {McpAuthFile} from '../../source/core/mcp/mcp-auth-file.js';

const url = new URL('https://mcp.example/mcp');

test('a folder others can write to is refused on read and before a write; 0755 is fine', {skip: process.platform === 'win32'}, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'i-mcp-auth-'));
	const file = McpAuthFile.in(dir);
	chmodSync(dir, 0o775);
	const refused = new RegExp(`MCP auth file ${file.path}: its folder ${dir} can be written by other users \\(mode 0775\\).*it holds tokens, so it is not used: run chmod go-w ${dir}$`);
	await assert.rejects(
		file.update('s', url, () => ({url: url.href, savedAt: 1})),
		refused,
	);
	assert.deepEqual(readdirSync(dir), [], 'nothing was written');
	chmodSync(dir, 0o755);
	await file.update('s', url, () => ({url: url.href, savedAt: 1}));
	assert.equal((await file.read('s', url))?.savedAt, 1);
	chmodSync(dir, 0o777);
	await assert.rejects(file.read('s', url), /\(mode 0777\)/);
	chmodSync(dir, 0o700);
	chmodSync(file.path, 0o644);
	await assert.rejects(file.read('s', url), /can be read or changed by other users \(mode 0644\).*chmod 600/);
});
