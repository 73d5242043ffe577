import {parseArgs, type ParseArgsConfig} from 'node:util';
import {UsageError} from '../../source/core/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A worker's command line: `--config FILE` (spec/platform.md §4) plus the module's own
 * options. Anything else is a usage error naming the worker.
 */
export function parseWorkerOptions<T extends Options>(worker: string, args: string[], options: T = {} as T) {
	try {
		return parseArgs({args, options: {config: {type: 'string'}, ...options}, strict: true, allowPositionals: false}).values;
	} catch (error) {
		throw new UsageError(`worker ${worker}: ${(error as Error).message}`);
	}
}
