// The CommonJS entry (dist/bundle/headless.cjs) for every run without a chat
// screen: `-p`, line mode, `--json`, the commands and the workers. One file
// in node's CommonJS loader instead of fifty ES modules to resolve, link and
// compile, and one whose compiled code bin/i.js can keep between runs on
// Node 20, which has no module compile cache (bin/i.js). Its chat-screen
// import hands the run to the ES module bundle (scripts/headless-tui.cjs).
// First, before any schema is made: see zod-jitless.ts.
import './core/zod-jitless.js';
import {main} from './cli-main.js';

export function run(argv: string[]): void {
	// As a top-level await would: a crash is its stack on stderr, exit 1.
	main(argv).catch((error: unknown) => {
		process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
		process.exit(1);
	});
}
