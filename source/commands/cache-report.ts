import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {loadModuleConfig} from '../core/config/module-config.js';
import {findWorkspaceId} from '../core/config/workspace-registry.js';
import {errorMessage, exitCodes} from '../core/errors.js';
import {cacheConfigSchema, statsPath} from '../../workers/cache/config.js';
import {emptyStats, readStats, type CacheTotals} from '../../workers/cache/stats-file.js';
import {workspaceFolder} from './workspace-folder.js';

const cacheReportFlags = {
	cwd: {type: 'string', shortFlag: 'C'},
	config: {type: 'string'},
	json: {type: 'boolean', default: false},
} satisfies AnyFlags;

interface Report extends Omit<CacheTotals, 'predictions'> {
	workspace: string;
	/** The stats file, or null when the workspace was never registered (so it has no state folder). */
	stats: string | null;
	found: boolean;
	/** Σ cache-read input / Σ all input over the responses with known usage; null before any input was seen. */
	observed_token_hit_ratio: number | null;
	target_hit_ratio: number;
	/** Null when any usage was unknown or any prepared request was never observed: the ratio then does not cover the workload. */
	target_met: boolean | null;
	/** Requests prepared whose response was never observed (failed, interrupted, or still running). */
	unobserved: number;
	predictions: CacheTotals['predictions'];
}

/**
 * `i --runtime cache-report [-C DIR] [--config FILE] [--json]` (spec/platform.md §8):
 * the observed prompt-cache figures of a workspace from the cache module's
 * stats file, against the target of `cache.json` (or `--config FILE`). A
 * workspace never seen is not registered: it simply has no statistics.
 */
export async function runCommand(args: string[]): Promise<number> {
	try {
		const {flags} = parseCommandLine(args, {flags: cacheReportFlags});
		const report = await buildReport(flags.cwd ?? '.', flags.config);
		process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : plainLines(report));
		return exitCodes.ok;
	} catch (error) {
		process.stderr.write(`i: --runtime cache-report: ${errorMessage(error)}\n`);
		return exitCodes.usage;
	}
}

async function buildReport(dir: string, explicitConfig: string | undefined): Promise<Report> {
	const workspace = await workspaceFolder(dir);

	const dirs = checkedDirs();
	const {config} = await loadModuleConfig('cache', cacheConfigSchema, {explicit: explicitConfig, dirs});
	const id = await findWorkspaceId(workspace, dirs);
	const path = id === undefined ? null : statsPath(dirs, id, config.stats);
	const read = path === null ? undefined : await readStats(path);
	const {predictions, ...totals} = (read ?? emptyStats()).totals;
	const ratio = totals.input_tokens > 0 ? totals.cache_read_tokens / totals.input_tokens : null;
	const unobserved = Math.max(0, totals.requests - totals.observed);
	const complete = totals.unknown_usage === 0 && unobserved === 0;
	return {
		workspace,
		stats: path,
		found: read !== undefined,
		observed_token_hit_ratio: ratio,
		target_hit_ratio: config.target_hit_ratio,
		target_met: complete && ratio !== null ? ratio >= config.target_hit_ratio : null,
		...totals,
		unobserved,
		predictions,
	};
}

function plainLines(report: Report): string {
	const lines = [`workspace: ${report.workspace}`];
	if (!report.found) {
		lines.push(report.stats === null ? 'no cache statistics: this workspace was never used (it has no ID yet)' : `no cache statistics yet (${report.stats} does not exist)`);
	} else {
		lines.push(`stats: ${report.stats}`);
	}

	const ratio = report.observed_token_hit_ratio;
	lines.push(
		`observed_token_hit_ratio: ${ratio === null ? 'none (no input tokens observed)' : ratio.toFixed(4)}`,
		`target_hit_ratio: ${report.target_hit_ratio}`,
		`target_met: ${report.target_met === null ? 'null (unknown usage or unobserved requests)' : String(report.target_met)}`,
		`requests: ${report.requests} (prepared ${report.prepared} with retries, observed ${report.observed}, unobserved ${report.unobserved}, unknown usage ${report.unknown_usage})`,
		`input_tokens: ${report.input_tokens}`,
		`cache_read_tokens: ${report.cache_read_tokens}`,
		`cache_write_tokens: ${report.cache_write_tokens}`,
		`predictions: ${Object.entries(report.predictions)
			.map(([name, count]) => `${name} ${count}`)
			.join(', ')}`,
	);
	return `${lines.join('\n')}\n`;
}
