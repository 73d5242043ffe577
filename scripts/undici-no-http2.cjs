// Stands in for node:http2 in the bundled undici (scripts/bundle.js). The
// model transport never offers HTTP/2 (undici's allowH2 stays false, so ALPN
// asks for http/1.1 only), and loading node:http2 costs every one-shot its
// internal modules for nothing. Undici itself copes with an http2 that has
// no constants (it does so where node:http2 is missing); a connection that
// still came up as h2 fails with this message instead of a TypeError.
module.exports = {
	constants: {},
	connect() {
		throw new Error('HTTP/2 is not built into this bundle of i: the model transport speaks HTTP/1.1');
	},
};
