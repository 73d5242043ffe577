import * as v8 from 'node:v8';

/** A constructor nothing makes: the query that collects the garbage finds no object and lists none. */
class Nothing {}

/**
 * Drops the compiled code (bytecode) of every function that is not running
 * now. V8 flushes a function's bytecode on its own once the function has
 * gone unused through several full collections; `--stress-flush-code` makes
 * one collection do it, and `v8.queryObjects` runs a full collection before
 * it counts. The flag is set back at once: a snapshot built with other V8
 * flags than its hosts start with is refused by node.
 *
 * The host's snapshot builder (official-snapshot.ts) runs this between two
 * sample turns, so the snapshot keeps the code a turn runs and not the code
 * the modules ran once as they were set up (about 0.75 MB of a 4.2 MB blob
 * on Node 24, and 0.6–0.9 ms of each host's CPU; Node 20's blob keeps no
 * such code to begin with). False, with nothing done, on a node without
 * `v8.queryObjects` (before 20.13).
 */
export function flushCompiledCode(): boolean {
	if (typeof v8.queryObjects !== 'function') return false;
	v8.setFlagsFromString('--stress-flush-code');
	try {
		v8.queryObjects(Nothing, {format: 'count'});
	} finally {
		v8.setFlagsFromString('--no-stress-flush-code');
	}

	return true;
}
