import type {ExtensionModule} from './api.js';

/**
 * The provider package compiled into this program, when it is one of the
 * bundles (scripts/bundle.js puts `providers/src` in place of this module
 * there); undefined in the unbundled build, which imports the package's
 * files like any extension's. The package is loaded by every run (it
 * declares the catalogue's providers), and importing its files started
 * node's ES module loader for six small modules in a one-shot that needs no
 * other ES module. It is the same code as the package's own
 * build under `providers/dist/`, made from the same sources by the same
 * build, and is used only in place of that folder (sources.ts, `compiledIn`).
 */
export const compiledProviders: (() => Promise<ExtensionModule>) | undefined = undefined;
