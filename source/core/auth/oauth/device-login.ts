import {setTimeout as sleep} from 'node:timers/promises';
import type {CheckedOAuthProvider} from '../../extensions/check-oauth.js';
import type {LoginIo} from './pkce-login.js';
import {describeEndpoint, flowLabel, OAuthError, postForm, readTokens, type TokenSet} from './token-endpoint.js';

/** RFC 8628 §3.2: the interval when the server gives none. */
export const DEFAULT_POLL_INTERVAL_MS = 5000;
/** Never poll faster than this, whatever the server says: a busy loop against its token endpoint helps nobody. */
export const MIN_POLL_INTERVAL_MS = 1000;
/** RFC 8628 §3.5: `slow_down` adds five seconds. */
const SLOW_DOWN_MS = 5000;
/** The code's lifetime when the server gives none, and the most a login waits whatever it says. */
const DEFAULT_CODE_LIFETIME_MS = 900_000;
const MAX_CODE_LIFETIME_MS = 1_800_000;
/** A user code is typed by a person; a verification URL is shown: both short, printable, one line. */
const MAX_USER_CODE_CHARS = 64;
const MAX_VERIFICATION_URL_CHARS = 2048;

/**
 * The device authorization grant (RFC 8628): the person opens the
 * verification URL on any device and enters the code shown here, while the
 * token endpoint is polled at the server's interval until it answers
 * tokens, refuses, or the code expires.
 */
export async function loginWithDevice(flow: CheckedOAuthProvider, io: LoginIo): Promise<TokenSet> {
	const label = flowLabel(flow);
	const endpoint = flow.deviceAuthorizationUrl!;
	const form = {client_id: flow.clientId, ...(flow.scopes.length > 0 ? {scope: flow.scopes.join(' ')} : {})};
	const answer = await postForm(flow, endpoint, form, io.signal);
	if (!answer.ok) throw new OAuthError(`${label}: ${describeEndpoint(endpoint)} refused: ${answer.code}${answer.description ? ` (${answer.description})` : ''}; no token was stored`, answer.code);
	const {device_code: deviceCode, user_code: userCode, expires_in: expiresIn, interval} = answer.json;
	const verification = answer.json.verification_uri ?? answer.json.verification_url;
	const complete = answer.json.verification_uri_complete;
	const bad = (field: string) => new OAuthError(`${label}: ${describeEndpoint(endpoint)} answered without a usable "${field}"; no token was stored`);
	if (typeof deviceCode !== 'string' || deviceCode === '') throw bad('device_code');
	if (!printable(userCode, MAX_USER_CODE_CHARS)) throw bad('user_code');
	if (!isWebUrl(verification)) throw bad('verification_uri');
	const lifetime = Math.min(typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_CODE_LIFETIME_MS, MAX_CODE_LIFETIME_MS);
	let waitMs = Math.max(MIN_POLL_INTERVAL_MS, typeof interval === 'number' && interval >= 0 ? interval * 1000 : DEFAULT_POLL_INTERVAL_MS);
	const deadline = io.now() + lifetime;
	const direct = isWebUrl(complete) ? `\n(or open ${complete}, which carries the code)` : '';
	io.show(
		`To sign in to ${flow.name}, open ${verification} on any device and enter the code ${userCode}${direct}\nWaiting for the sign-in (the code expires in ${Math.round(lifetime / 60_000)} minutes; Ctrl-C cancels)…`,
	);
	const poll = {grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: flow.clientId};
	for (;;) {
		try {
			await sleep(waitMs, undefined, {signal: io.signal});
		} catch {
			throw new OAuthError(`${label}: login cancelled; no token was stored`, 'cancelled');
		}

		if (io.now() > deadline) throw new OAuthError(`${label}: the code ${userCode} expired before the sign-in finished; run i auth login ${flow.id} again. No token was stored`, 'expired_token');
		const polled = await postForm(flow, flow.tokenUrl, poll, io.signal);
		if (polled.ok) return readTokens(flow, flow.tokenUrl, polled, io.now());
		if (polled.code === 'authorization_pending') continue;
		if (polled.code === 'slow_down') {
			waitMs += SLOW_DOWN_MS;
			continue;
		}

		return readTokens(flow, flow.tokenUrl, polled, io.now());
	}
}

/** What goes to a terminal from a server: one line of printable characters, so it cannot move the cursor or recolour the screen. */
function printable(value: unknown, max: number): value is string {
	return typeof value === 'string' && value.length > 0 && value.length <= max && /^[\x20-\x7e]+$/.test(value);
}

function isWebUrl(value: unknown): value is string {
	if (!printable(value, MAX_VERIFICATION_URL_CHARS) || value.includes(' ')) return false;
	try {
		const url = new URL(value);
		return url.protocol === 'https:' || url.protocol === 'http:';
	} catch {
		return false;
	}
}
