// The chat screen (source/tui/hand-over.ts, source/tui/run-tui.ts) in the one-file headless
// bundle (dist/bundle/headless.cjs), which cannot hold it: Ink's layout
// engine loads with a top-level await. bin/i.js starts that bundle only for
// runs that cannot open the chat screen; should one want it after all (a
// `-p` that was another flag's value, say), awaiting this module's import
// hands the run to the ES module bundle beside it, which starts it again
// from its command line. run-cli.ts awaits it before any step that has an
// effect, so nothing is done twice. It is a thenable that never settles:
// the headless bundle's run stops at that await, and the ES module bundle
// exits the process when its run ends.
const {join} = require('node:path');
const {pathToFileURL} = require('node:url');
const {importUrl} = require('./headless-import.cjs');

module.exports = {
	// biome-ignore lint/suspicious/noThenProperty: awaiting this module is what hands the run over (above).
	then() {
		importUrl(pathToFileURL(join(__dirname, 'cli.js')).href).catch(error => {
			process.stderr.write(`${error?.stack ?? error}\n`);
			process.exit(1);
		});
	},
};
