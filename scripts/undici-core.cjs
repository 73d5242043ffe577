// What of undici the model transport uses (source/core/providers/undici-transport.ts),
// bundled in place of the package's index.js, which also loads fetch,
// WebSocket, EventSource, the caches and the mocks: the dispatchers and
// their request API, with undici's own names. scripts/bundle.js maps
// `undici` here; unbundled code (the tests' dist/source) loads the package.
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');

// As undici's index.js does: request(), stream()… become dispatcher methods.
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));

module.exports = {
	Agent: require('undici/lib/dispatcher/agent.js'),
	EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent.js'),
	Pool: require('undici/lib/dispatcher/pool.js'),
};
