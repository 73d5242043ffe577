/**
 * The one worker process that serves every official module (issue 11): the
 * generated manifests start each official module as
 * `PROGRAM --runtime worker official`, so the pool, which keeps one process
 * per (argv, cwd) (spec/platform.md §2), runs them all in one resident worker, and each
 * request frame names its entry's module at the top level.
 */
export const OFFICIAL_HOST = 'official';

/** The argv of the official host, started by `program` (`programArgv()`). */
export function officialHostArgv(program: readonly string[]): string[] {
	return [...program, '--runtime', 'worker', OFFICIAL_HOST];
}
