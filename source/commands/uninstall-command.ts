import {parseCommandLine} from '../command-line/parse-command-line.js';
import {UsageError} from '../core/errors.js';
import {describeScope, type PackageScope} from '../core/extensions/package-scope.js';
import type {UninstalledPackage} from '../core/extensions/uninstall-package.js';
import {oneWord, packageFlags, packageScopes, writeFailure, writeResult} from './package-command.js';

/** What `--json` prints: what was removed, and from where. */
interface UninstallReport extends UninstalledPackage {
	scope: PackageScope['kind'];
	settings: string;
	prefix: string;
}

/**
 * `i uninstall NAME [--global] [-C DIR] [--json]`: removes an extension
 * package from the scope's npm prefix and its entries from that
 * settings.json (uninstall-package.ts). An unknown name is a usage error
 * listing what is installed, with a hint when the other scope has it.
 */
export async function runUninstall(args: string[]): Promise<number> {
	try {
		const {flags, input} = parseCommandLine(args, {flags: packageFlags, takesInput: true});
		const name = oneWord('i uninstall NAME (the package name i install printed)', 'the package to uninstall', input);
		const {scope, other} = packageScopes(flags);
		const {uninstallPackage, listInstalled, UnknownPackageError} = await import('../core/extensions/uninstall-package.js');
		let removed: UninstalledPackage;
		try {
			removed = await uninstallPackage(scope, name);
		} catch (error) {
			if (!(error instanceof UnknownPackageError)) throw error;
			if (other && (await listInstalled(other)).includes(name)) {
				throw new UnknownPackageError(`${error.message}; "${name}" is installed ${describeScope(other.kind)}: ${other.kind === 'global' ? 'add' : 'leave out'} --global`);
			}

			const shipped = await (await import('../core/extensions/bundled-providers.js')).bundledPackageNamed(name);
			if (shipped !== undefined) throw new UsageError(shippedPackageMessage(name, shipped, [scope, other]));
			throw error;
		}

		const report: UninstallReport = {...removed, scope: scope.kind, settings: scope.settingsPath, prefix: scope.prefix};
		return writeResult(flags.json, report, plainText(report));
	} catch (error) {
		return writeFailure('uninstall', error);
	}
}

function plainText(report: UninstallReport): string {
	const lines: string[] = [];
	const from = report.removedEntries.map(({key, entry}) => `"${entry}" from "${key}"`).join(', ');
	lines.push(
		from === '' ? `${report.name} was not listed in ${report.settings} (${describeScope(report.scope)})` : `uninstalled ${report.name}: removed ${from} of ${report.settings} (${describeScope(report.scope)})`,
	);
	if (report.removedFromPrefix) lines.push(`removed the package from ${report.prefix}`);
	const folders = report.removedEntries.filter(({entry}) => entry !== report.name);
	if (folders.length > 0)
		lines.push(`the folder${folders.length > 1 ? 's' : ''} ${folders.map(({entry}) => entry).join(', ')} ${folders.length > 1 ? 'are' : 'is'} left as ${folders.length > 1 ? 'they are' : 'it is'}`);
	return `${lines.join('\n')}\n`;
}

/**
 * Why the provider package that ships inside `i` cannot be uninstalled,
 * and how it is turned off: `"providerPackage": false` in a settings file
 * of the scopes at hand (docs/providers.md), or --no-extensions for a run.
 */
function shippedPackageMessage(name: string, folder: string, scopes: Array<PackageScope | undefined>): string {
	const files = scopes
		.filter(scope => scope !== undefined)
		.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'project' ? -1 : 1))
		.map(scope => `${scope.settingsPath} (${describeScope(scope.kind)})`);
	return (
		`"${name}" is the provider package that ships inside i (${folder}), not an installed one, so it cannot be uninstalled; ` +
		`to turn it off, set "providerPackage": false in ${files.join(' or ')}, or run with --no-extensions for one run (docs/providers.md, "The provider package")`
	);
}
