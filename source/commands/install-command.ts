import type {AnyFlags} from 'meow';
import {parseCommandLine} from '../command-line/parse-command-line.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import {describeScope, type PackageScope} from '../core/extensions/package-scope.js';
import type {InstalledPackage} from '../core/extensions/install-package.js';
import {keepStdoutForContent, writeErr} from '../shared/output.js';
import {oneWord, packageFlags, packageScopes, writeFailure, writeResult} from './package-command.js';

const installFlags = {
	...packageFlags,
	trustProject: {type: 'boolean', default: false},
} satisfies AnyFlags;

/** What `--json` prints: the installed package and where it went. */
interface InstallReport extends InstalledPackage {
	scope: PackageScope['kind'];
	settings: string;
	prefix: string;
	/** `trusted-workspace`: project code, loaded only in a trusted workspace; `always`: the person's own. */
	loads: 'trusted-workspace' | 'always';
}

/**
 * `i install SPEC [--global] [-C DIR] [--trust-project] [--json]`: installs
 * an extension package with npm into the project's `.i/npm` (or, with
 * --global, `<config_dir>/npm`) and lists it by name in that folder's
 * settings.json `packages` (install-package.ts). The package's module is
 * imported to check its `register` only where its code may run: for
 * --global, or in a workspace trusted before or with --trust-project.
 */
export async function runInstall(args: string[]): Promise<number> {
	// A module the check imports must not corrupt the output (--json above all).
	keepStdoutForContent();
	try {
		const {flags, input} = parseCommandLine(args, {flags: installFlags, takesInput: true});
		const spec = oneWord('i install SPEC (an npm package name, name@version, a tarball or a folder)', 'the package to install', input);
		const {scope, workspace} = packageScopes(flags);
		const runCode = workspace === undefined || flags.trustProject || (await trusted(workspace));
		const {installPackage} = await import('../core/extensions/install-package.js');
		const installed = await installPackage({scope, spec, cwd: process.cwd(), runCode, warn: text => writeErr(text.endsWith('\n') ? text : `${text}\n`)});
		const report: InstallReport = {...installed, scope: scope.kind, settings: scope.settingsPath, prefix: scope.prefix, loads: scope.kind === 'project' ? 'trusted-workspace' : 'always'};
		return writeResult(flags.json, report, plainText(report));
	} catch (error) {
		return writeFailure('install', error);
	}
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
		report.linked
			? `linked ${report.name}${version} into ${report.path} → ${report.spec}${replacing} (a link: changes to that folder load at the next start)`
			: `installed ${report.name}${version} from ${report.spec} into ${report.path}${replacing}`,
		report.added ? `listed "${report.name}" in "packages" of ${report.settings} (${describeScope(report.scope)})` : `"${report.name}" was listed in ${report.settings} already (${describeScope(report.scope)})`,
		report.imported ? `checked: ${report.entry} loads and exports register` : `found its entry ${report.entry}; its code was not run to check it, since the workspace is not trusted (--trust-project checks it)`,
	];
	if (report.loads === 'trusted-workspace') lines.push('it is project code: it loads only in a trusted workspace (one trusted before, or a run with --trust-project)');
	return `${lines.join('\n')}\n`;
}
