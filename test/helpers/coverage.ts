import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

interface Coverage {
	result: Array<{url: string; functions: Array<{functionName: string; ranges: Array<{count: number}>}>}>;
}

/**
 * The functions of the headless bundle (dist/bundle/headless.cjs) a run
 * with `NODE_V8_COVERAGE=folder` ran, by name, with how often. esbuild
 * wraps each bundled module in a function named for its path
 * (`"dist/source/core/…js"() {…}`), run the first time the module is
 * needed: a module's name here means the run loaded it. A function V8
 * never compiled is not listed at all.
 */
export function ranInHeadless(folder: string): Map<string, number> {
	const ran = new Map<string, number>();
	for (const name of readdirSync(folder).filter(file => file.endsWith('.json'))) {
		const coverage = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Coverage;
		for (const script of coverage.result.filter(entry => entry.url.endsWith('/bundle/headless.cjs'))) {
			for (const fn of script.functions) {
				const count = fn.ranges[0]?.count ?? 0;
				if (count > 0) ran.set(fn.functionName, (ran.get(fn.functionName) ?? 0) + count);
			}
		}
	}

	return ran;
}
