import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {AuthFile, MAX_AUTH_FILE_BYTES} from '../../source/core/auth/auth-file.js';

function folder(): string {
	return mkdtempSync(join(tmpdir(), 'i-auth-file-'));
}

test('the first store creates the folder 0700 and the file 0600, and reads back', async () => {
	const dir = join(folder(), 'config', 'nested');
	const file = AuthFile.in(dir);
	assert.equal(file.read().size, 0, 'no file is no entries');
	assert.equal(await file.store('deepseek', {type: 'api_key', key: 'sk-one'}), undefined);
	assert.equal(statSync(dir).mode & 0o777, 0o700);
	assert.equal(statSync(file.path).mode & 0o777, 0o600);
	assert.deepEqual(file.read().get('deepseek'), {type: 'api_key', key: 'sk-one'});
	// No temp file or lock is left beside it.
	assert.deepEqual(readdirSync(dir), ['auth.json']);
});

test('a store keeps every other entry exactly as written, fields this version does not know included', async () => {
	const dir = folder();
	const path = join(dir, 'auth.json');
	const other = {type: 'oauth', access: 'a', refresh: 'r', expires: 1_900_000_000_000, enterpriseUrl: 'https://ghe.example', projectId: 'p-1'};
	writeFileSync(path, JSON.stringify({'github-copilot': other, openai: {type: 'api_key', key: 'sk-old'}}), {mode: 0o600});
	const file = new AuthFile(path);
	const previous = await file.store('openai', {type: 'api_key', key: 'sk-new'});
	assert.deepEqual(previous, {type: 'api_key', key: 'sk-old'});
	const written = JSON.parse(readFileSync(path, 'utf8'));
	assert.deepEqual(written, {'github-copilot': other, openai: {type: 'api_key', key: 'sk-new'}});
	assert.deepEqual(await file.remove('openai'), {type: 'api_key', key: 'sk-new'});
	assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {'github-copilot': other});
	// Removing what is not there writes nothing.
	const before = statSync(path).mtimeMs;
	assert.equal(await file.remove('openai'), undefined);
	assert.equal(statSync(path).mtimeMs, before);
});

test('a broken file is an error naming it and the entry, and a store never writes over it', async () => {
	const dir = folder();
	const path = join(dir, 'auth.json');
	const cases: Array<[string, RegExp]> = [
		['{"openai": {"type": "api_key", "key": "sk-', /not valid JSON/],
		['[1, 2]', /must be an object of provider ids/],
		['{"openai": {"type": "apikey", "key": "k"}}', /entry "openai": field "type" must be "api_key" or "oauth"/],
		['{"openai": {"type": "api_key"}}', /entry "openai": missing field "key"/],
		['{"x": {"type": "oauth", "access": "a", "expires": "tomorrow"}}', /entry "x": field "expires": Invalid input: expected number/],
	];
	for (const [text, message] of cases) {
		writeFileSync(path, text, {mode: 0o600});
		const file = new AuthFile(path);
		assert.throws(
			() => file.read(),
			(error: Error) => error.name === 'UsageError' && error.message.startsWith(`auth file ${path}`) && message.test(error.message),
		);
		await assert.rejects(file.store('deepseek', {type: 'api_key', key: 'sk-new'}), message);
		await assert.rejects(file.remove('openai'), message);
		assert.equal(readFileSync(path, 'utf8'), text, 'nothing lost');
	}
});

test('a file others may read or change is refused, with the fix', {skip: process.platform === 'win32'}, async () => {
	const path = join(folder(), 'auth.json');
	writeFileSync(path, '{"openai": {"type": "api_key", "key": "sk-secret-value"}}');
	for (const mode of [0o644, 0o640, 0o602]) {
		chmodSync(path, mode);
		const file = new AuthFile(path);
		assert.throws(
			() => file.read(),
			(error: Error) => error.message.includes(`mode 0${mode.toString(8)}`) && error.message.includes(`chmod 600 ${path}`) && !error.message.includes('sk-secret'),
		);
	}

	chmodSync(path, 0o400);
	assert.equal(new AuthFile(path).read().size, 1, 'owner-only read is fine');
});

test("a folder others can write to is refused (ssh's rule): 0777 and 0775 are, 0755, 0700 and a sticky 1777 are not", {skip: process.platform === 'win32'}, async () => {
	const dir = folder();
	const path = join(dir, 'auth.json');
	writeFileSync(path, '{"openai": {"type": "api_key", "key": "sk-secret-value"}}', {mode: 0o600});
	for (const mode of [0o777, 0o775, 0o757, 0o770]) {
		chmodSync(dir, mode);
		const file = new AuthFile(path);
		const refused = (error: Error) =>
			error.name === 'UsageError' &&
			error.message ===
				`auth file ${path}: its folder ${dir} can be written by other users (mode 0${mode.toString(8)}), who could replace or remove the file; it holds keys, so it is not used: run chmod go-w ${dir}`;
		assert.throws(() => file.read(), refused);
		await assert.rejects(file.store('deepseek', {type: 'api_key', key: 'sk-new'}), refused);
		assert.throws(() => file.checkWritable(), refused);
	}

	for (const mode of [0o755, 0o700, 0o1777, 0o1775]) {
		chmodSync(dir, mode);
		assert.equal(new AuthFile(path).read().size, 1, `mode ${mode.toString(8)} is fine`);
	}

	chmodSync(dir, 0o700);
	// With no file yet, a store into such a folder is refused before anything is written.
	const empty = folder();
	chmodSync(empty, 0o777);
	const fresh = AuthFile.in(empty);
	assert.equal(fresh.read().size, 0, 'no file: nothing to refuse on read');
	await assert.rejects(fresh.store('openai', {type: 'api_key', key: 'sk-new'}), /its folder .* can be written by other users \(mode 0777\)/);
	assert.deepEqual(readdirSync(empty), []);
});

test('the size cap: a file at the cap is read, one byte past it is refused', () => {
	const path = join(folder(), 'auth.json');
	const entry = '{"openai": {"type": "api_key", "key": "k"}}';
	writeFileSync(path, entry + ' '.repeat(MAX_AUTH_FILE_BYTES - entry.length), {mode: 0o600});
	assert.equal(new AuthFile(path).read().size, 1);
	writeFileSync(path, entry + ' '.repeat(MAX_AUTH_FILE_BYTES - entry.length + 1), {mode: 0o600});
	assert.throws(() => new AuthFile(path).read(), new RegExp(`over ${MAX_AUTH_FILE_BYTES} bytes`));
});

test('stores at the same time each keep their entry (the lock serialises them)', async () => {
	const dir = folder();
	const providers = Array.from({length: 8}, (_, index) => `p${index}`);
	await Promise.all(providers.map(async provider => new AuthFile(join(dir, 'auth.json')).store(provider, {type: 'api_key', key: `key-${provider}`})));
	const entries = AuthFile.in(dir).read();
	assert.deepEqual([...entries.keys()].sort(), providers);
});
