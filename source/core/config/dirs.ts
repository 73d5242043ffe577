import {homedir} from 'node:os';
import {join} from 'node:path';

/** The four platform folders; each `I_*_DIR` overrides its default under `~/.i`. */
export interface PlatformDirs {
	config_dir: string;
	data_dir: string;
	cache_dir: string;
	runtime_dir: string;
}

export const dirEnvironmentVariables = {
	config_dir: 'I_CONFIG_DIR',
	data_dir: 'I_DATA_DIR',
	cache_dir: 'I_CACHE_DIR',
	runtime_dir: 'I_RUNTIME_DIR',
} as const;

export function resolveDirs(env: NodeJS.ProcessEnv = process.env): PlatformDirs {
	// On Windows the home folder comes from USERPROFILE (spec/platform.md §3); os.homedir() already does that.
	const home = join(homedir(), '.i');
	const pick = (key: keyof PlatformDirs, name: string) => {
		const value = env[dirEnvironmentVariables[key]];
		return value && value.length > 0 ? value : join(home, name);
	};

	return {
		config_dir: pick('config_dir', 'config'),
		data_dir: pick('data_dir', 'data'),
		cache_dir: pick('cache_dir', 'cache'),
		runtime_dir: pick('runtime_dir', 'runtime'),
	};
}
