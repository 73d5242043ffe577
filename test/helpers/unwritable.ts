import {spawnSync} from 'node:child_process';
import {chmodSync, writeFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';

/**
 * Makes `dir` a folder nobody can create files in, as far as this machine
 * allows: its mode for an ordinary user; for root, who ignores modes, the
 * immutable attribute (chattr +i), where the file system and the
 * container's capabilities allow it. Resolves with the undo, or null when
 * neither works here (the caller skips, saying why). Checked by trying a write.
 */
export function makeUnwritable(dir: string): (() => void) | null {
	const probe = join(dir, '.probe');
	const writable = () => {
		try {
			writeFileSync(probe, '');
			rmSync(probe, {force: true});
			return true;
		} catch {
			return false;
		}
	};

	if (process.getuid?.() !== 0) {
		chmodSync(dir, 0o555);
		if (!writable()) return () => chmodSync(dir, 0o755);
		chmodSync(dir, 0o755);
		return null;
	}

	const set = spawnSync('chattr', ['+i', dir]);
	if (set.status !== 0) return null;
	const undo = () => {
		spawnSync('chattr', ['-i', dir]);
	};

	if (!writable()) return undo;
	undo();
	return null;
}
