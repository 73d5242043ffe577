import assert from 'node:assert/strict';
import {test} from 'node:test';
import {workerEnvironment} from '../../source/core/pool/worker-environment.js';

const dirs = {config_dir: '/app/config', data_dir: '/app/data', cache_dir: '/app/cache', runtime_dir: '/app/runtime'};

test('a worker gets PATH, PYTHONUTF8=1, the system folders that are set and the four resolved folders, nothing else', () => {
	const parent = {
		PATH: '/usr/bin:/bin',
		HOME: '/home/me',
		TMP: '/tmp',
		OPENAI_API_KEY: 'sk-secret',
		ANTHROPIC_API_KEY: 'secret',
		I_APPROVAL_TOKEN: 'token',
		I_CONFIG_DIR: '/elsewhere',
		PYTHONUTF8: '0',
		LANG: 'C.UTF-8',
		NODE_OPTIONS: '--require /tmp/x.js',
	};
	assert.deepEqual(workerEnvironment(parent, dirs), {
		PATH: '/usr/bin:/bin',
		TMP: '/tmp',
		HOME: '/home/me',
		PYTHONUTF8: '1',
		I_CONFIG_DIR: '/app/config',
		I_DATA_DIR: '/app/data',
		I_CACHE_DIR: '/app/cache',
		I_RUNTIME_DIR: '/app/runtime',
	});
});

test('all six inherited names pass through when set', () => {
	const parent = {PATH: 'p', SystemRoot: 'C:\\Windows', TEMP: 't', TMP: 'u', HOME: 'h', USERPROFILE: 'C:\\Users\\me'};
	assert.deepEqual(workerEnvironment(parent, dirs), {...parent, PYTHONUTF8: '1', I_CONFIG_DIR: '/app/config', I_DATA_DIR: '/app/data', I_CACHE_DIR: '/app/cache', I_RUNTIME_DIR: '/app/runtime'});
	assert.deepEqual(Object.keys(workerEnvironment({}, dirs)), ['PYTHONUTF8', 'I_CONFIG_DIR', 'I_DATA_DIR', 'I_CACHE_DIR', 'I_RUNTIME_DIR']);
});
