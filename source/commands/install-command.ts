import type {AnyFlags} from 'meow';
import {resolve} from 'node:path';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {UsageError} from '../core/errors.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {describeScope, type PackageScope} from '../core/extensions/package-scope.js';
import type {InstalledPackage} from '../core/extensions/install-package.js';
import {keepStdoutForContent, writeErr} from '../shared/output.js';
import {oneWord, packageFlags, packageScopes, writeFailure, writeResult} from './package-command.js';

const installFlags = {
	...packageFlags,
	trustProject: {type: 'boolean', default: false},
	path: {type: 'string'},
	build: {type: 'boolean', default: false},
} satisfies AnyFlags;

/** What `--json` prints: the installed package and where it went. */
interface InstallReport extends InstalledPackage {
	scope: PackageScope['kind'];
	settings: string;
	prefix: string;
	/** `trusted-workspace`: project code, loaded only in a trusted workspace; `always`: the person's own. */
	loads: 'trusted-workspace' | 'always';
	/** `--build`: the package's build script ran first, in this folder, for this long; null without --build. */
	build: {folder: string; ms: number} | null;
}

/**
 * `i install SPEC | --path DIR [--build] [--global] [-C DIR] [--trust-project] [--json]`:
 * installs an extension package with npm into the project's `.i/npm` (or,
 * with --global, `<config_dir>/npm`) and lists it by name in that folder's
 * settings.json `packages` (install-package.ts). With --build the package
 * folder's own build script runs first (build-package.ts), and a build that
 * fails installs nothing. The package's module is imported to check its
 * `register` only where its code may run: for --global, or in a workspace
 * trusted before or with --trust-project.
 */
export async function runInstall(args: string[]): Promise<number> {
	// A module the check imports must not corrupt the output (--json above all).
	keepStdoutForContent();
	try {
		const {flags, input} = parseCommandLine(args, {flags: installFlags, takesInput: true});
		const spec = flags.path === undefined ? oneWord(usage, 'the package to install', input) : pathSpec(flags.path, input);
		const {scope, workspace} = packageScopes(flags);
		const runCode = workspace === undefined || flags.trustProject || (await trusted(workspace));
		const build = flags.build ? await buildFirst(spec, scope) : null;
		const {installPackage} = await import('../core/extensions/install-package.js');
		const installed = await installPackage({scope, spec, cwd: process.cwd(), runCode, warn: text => writeErr(text.endsWith('\n') ? text : `${text}\n`)});
		const report: InstallReport = {...installed, scope: scope.kind, settings: scope.settingsPath, prefix: scope.prefix, loads: scope.kind === 'project' ? 'trusted-workspace' : 'always', build};
		return writeResult(flags.json, report, plainText(report));
	} catch (error) {
		return writeFailure('install', error);
	}
}

const usage = 'i install SPEC (an npm package name, name@version, a tarball or a folder), or i install --path DIR [--build]';

/** `--path DIR`: the package folder, as a path npm takes for a folder whatever it looks like; no SPEC beside it. */
function pathSpec(path: string, input: string[]): string {
	if (input.length > 0) throw new UsageError(`--path ${path} names the package already; leave out ${input.join(' ')}: ${usage}`);
	if (path === '') throw new UsageError(`--path needs the package's folder: ${usage}`);
	return resolve(path);
}

/**
 * `--build`: the settings file is checked (a broken one stops everything
 * before any build), then the package folder's build script runs, said on
 * stderr before and after. Only a folder can be built.
 */
async function buildFirst(spec: string, scope: PackageScope): Promise<InstallReport['build']> {
	const [{readPackageSpec}, {readSettingsJson}, {buildPackage}] = await Promise.all([
		import('../core/extensions/package-spec.js'),
		import('../core/extensions/settings-file.js'),
		import('../core/extensions/build-package.js'),
	]);
	const given = await readPackageSpec(spec, process.cwd());
	if (given.kind !== 'folder')
		throw new UsageError(`--build builds a package from its source folder, and ${spec} is ${given.kind === 'tarball' ? 'a tarball' : 'no folder'}; give the folder (--path DIR), or leave --build out`);
	await readSettingsJson(scope.settingsPath);
	const built = await buildPackage(given.path, name => writeErr(`i: install: building ${name} with npm run build in ${given.path}\n`));
	writeErr(`i: install: built ${built.name} in ${built.ms} ms\n`);
	return {folder: built.folder, ms: built.ms};
}

/** Whether the workspace was trusted before (never asks, never records a decision). */
async function trusted(workspace: string): Promise<boolean> {
	const [{readTrust}, {findWorkspaceId, workspaceStateDir}] = await Promise.all([import('../core/extensions/project-trust.js'), import('../core/config/workspace-registry.js')]);
	const dirs = checkedDirs();
	const id = await findWorkspaceId(workspace, dirs);
	return id !== undefined && (await readTrust(workspaceStateDir(dirs, id)))?.trusted === true;
}

function plainText(report: InstallReport): string {
	const version = report.version === null ? '' : ` ${report.version}`;
	const replacing = report.updated ? ', replacing the one there' : '';
	const lines = [
		...(report.build === null ? [] : [`built it with npm run build in ${report.build.folder} (${report.build.ms} ms)`]),
		report.linked
			? `linked ${report.name}${version} into ${report.path} → ${report.spec}${replacing} (a link: changes to that folder load at the next start)`
			: `installed ${report.name}${version} from ${report.spec} into ${report.path}${replacing}`,
		report.added ? `listed "${report.name}" in "packages" of ${report.settings} (${describeScope(report.scope)})` : `"${report.name}" was listed in ${report.settings} already (${describeScope(report.scope)})`,
		report.imported ? `checked: ${report.entry} loads and exports register` : `found its entry ${report.entry}; its code was not run to check it, since the workspace is not trusted (--trust-project checks it)`,
	];
	if (report.loads === 'trusted-workspace') lines.push('it is project code: it loads only in a trusted workspace (one trusted before, or a run with --trust-project)');
	return `${lines.join('\n')}\n`;
}
