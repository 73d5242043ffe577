import {builtinAuthSubjects, type AuthCatalogue} from '../core/auth/auth-subjects.js';
import type {AuthSubject} from '../core/auth/resolve-credential.js';
import type {BuiltCatalogue} from '../core/catalogue/build-catalogue.js';
import type {Selection} from '../core/catalogue/select-model.js';
import {authSubjectOf} from '../core/catalogue/credential-for.js';
import {checkedDirs} from '../core/config/checked-dirs.js';
import type {CheckedOAuthProvider} from '../core/extensions/check-oauth.js';
import type {ExtensionOptions} from '../core/session/start-extensions.js';
import {resolveWorkspace} from '../core/session/start-plugins.js';

/**
 * The catalogue a run in `cwd` would have: the built-ins, the extensions'
 * and the provider package's `declare({providers})`, models.json over them.
 * The extensions load as for a headless run (project ones, and a project
 * models.json's endpoints, only in a trusted workspace); their problems and models.json's notes go to `report`. A
 * broken models.json is a UsageError.
 */
export async function loadRunCatalogue(options: ExtensionOptions & {cwd?: string | undefined}, report: (message: string) => void): Promise<RunCatalogue> {
	const dirs = checkedDirs();
	const workspace = resolveWorkspace(options.cwd);
	const [{startExtensions}, {readTrustedModelsFiles}, {buildCatalogue}] = await Promise.all([
		import('../core/session/start-extensions.js'),
		import('../core/session/trusted-models-files.js'),
		import('../core/catalogue/build-catalogue.js'),
	]);
	const started = await startExtensions(options, {workspace, dirs, takenToolNames: new Map(), report});
	for (const message of started.warnings) report(message);
	const {files, warnings} = await readTrustedModelsFiles({dirs, workspace, trustProject: options.trustProject});
	for (const message of warnings) report(message);
	const built = buildCatalogue(started.catalogue, files);
	for (const message of built.warnings) report(message);
	// The OAuth flows of the providers the catalogue has from the extension that registered them.
	const oauthFlows = new Map<string, OAuthFlowOwner>();
	for (const [id, owned] of started.providers) if (owned.oauth && built.servedBy.get(id) === owned.extension) oauthFlows.set(id, {extension: owned.extension, flow: owned.oauth});
	return {...built, oauthFlows};
}

/** An extension's OAuth flow (registerOAuthProvider) and whose it is. */
export interface OAuthFlowOwner {
	extension: string;
	flow: CheckedOAuthProvider;
}

/** A run's catalogue and the OAuth flows of its providers, by provider id. */
export type RunCatalogue = BuiltCatalogue & {oauthFlows: ReadonlyMap<string, OAuthFlowOwner>};

/** The providers `i auth` knows, and how a run's catalogue selection picks one of them. */
export interface AuthProviders extends AuthCatalogue {
	/** The provider id `--provider` / `--model` / the config's `provider` select: the run's own resolution (select-model.ts); a UsageError as the run's. */
	select(selection: Selection): Promise<string>;
	/** The OAuth flow an extension registered for the provider, if any: `i auth login` then signs in instead of asking for a key. */
	oauthFlow(id: string): OAuthFlowOwner | undefined;
}

/**
 * The providers `i auth` knows from a catalogue: each provider's subject
 * from its private binding (models.json's key variable and the declared
 * one), the core's built-in subjects for ids the catalogue lacks (DeepSeek
 * with the package removed: its stored key can still be managed), and the
 * config's own protocol selection over the entry of its id (what that run
 * would use).
 */
export function catalogueAuth(built: BuiltCatalogue & {oauthFlows?: ReadonlyMap<string, OAuthFlowOwner>}): (selected: AuthSubject | undefined) => AuthProviders {
	const flows = built.oauthFlows ?? new Map<string, OAuthFlowOwner>();
	return selected => {
		const subjects = new Map<string, AuthSubject>();
		for (const provider of built.catalogue.providers()) {
			const binding = built.bindings.get(provider.id);
			if (binding) subjects.set(provider.id, {...authSubjectOf(binding), ...(flows.has(provider.id) ? {oauthFlow: true} : {})});
		}

		for (const subject of builtinAuthSubjects) if (!subjects.has(subject.provider)) subjects.set(subject.provider, subject);
		if (selected) subjects.set(selected.provider, selected);
		return {
			ids: () => [...subjects.keys()],
			lookup: id => subjects.get(id),
			oauthFlow: id => flows.get(id),
			select: async selection => (await import('../core/catalogue/select-model.js')).resolveSelection(selection, built).provider.id,
		};
	};
}
