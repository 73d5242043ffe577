// Runs every compiled test file under dist/test with node:test.
// Node 20's --test takes no globs, so the files are listed here.
import {readdirSync} from 'node:fs';
import {join} from 'node:path';
import {spawnSync} from 'node:child_process';

function find(dir) {
	return readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : find(path);
		return entry.name.endsWith('.test.js') ? [path] : [];
	});
}

const filter = process.argv.slice(2);
const files = find('dist/test').filter(file => filter.length === 0 || filter.some(f => file.includes(f)));
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files], {stdio: 'inherit'});
process.exit(result.status ?? 1);
