import {execFileSync} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

export interface TestCa {
	/** The CA certificate (PEM), for NODE_EXTRA_CA_CERTS. */
	caPath: string;
	/** A server key and certificate for 127.0.0.1 and localhost, signed by the CA. */
	key: string;
	cert: string;
}

/** A fresh CA and a server certificate signed by it, made with openssl in a temp folder (valid 2 days: made per run, never committed). */
export function makeTestCa(): TestCa {
	const dir = mkdtempSync(join(tmpdir(), 'i-test-ca-'));
	const file = (name: string) => join(dir, name);
	const openssl = (...args: string[]) => execFileSync('openssl', args, {cwd: dir, stdio: ['ignore', 'ignore', 'pipe']});
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl('req', '-x509', ...ec, '-days', '2', '-subj', '/CN=i test CA', '-keyout', file('ca.key'), '-out', file('ca.pem'));
	openssl('req', ...ec, '-subj', '/CN=127.0.0.1', '-keyout', file('server.key'), '-out', file('server.csr'));
	writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
	openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-set_serial', '1', '-days', '2', '-extfile', file('server.ext'), '-out', file('server.pem'));
	return {caPath: file('ca.pem'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.pem'), 'utf8')};
}
