// source/core/import-url.ts in the one-file headless bundle. bin/code-cache.js
// runs that bundle from a V8 code cache on Node 20, and an import() in code
// that came from a code cache finds no module loader there (Node 20 keeps the
// loader of a vm.Script by a key the cache does not carry). bin/code-cache.js
// then offers an import() of its own, compiled by node as usual; a bundle
// loaded by plain require() (Node ≥ 22.1, or no cache) imports by itself.
// test/cli/code-cache.test.ts checks that no other module of i in the bundle calls import().
const outside = globalThis[Symbol.for('i-agent.import-url')];

exports.importUrl = async url => (outside ? outside(url) : import(url));
