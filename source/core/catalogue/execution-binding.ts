/**
 * The private half of a provider (spec/extensions.md §11, the private binding):
 * where its requests really go, the headers they carry and where its key
 * comes from. The host keeps one per provider id, apart from the public
 * catalogue, and reads it afresh for each caller it builds: changing a
 * public description (a catalogue entry, `getExecutionContext`'s answer, a
 * declared object kept by an extension) cannot redirect a credential.
 */
export interface ExecutionBinding {
	provider: string;
	/** The endpoint; undefined: the adapter's (or the extension's) own default. */
	baseUrl: string | undefined;
	/** Extra request headers (models.json); never shown anywhere. */
	headers: Readonly<Record<string, string>>;
	/** The NAME of the variable the provider declares for its key (a built-in's, an extension's `apiKeyEnv`). */
	apiKeyEnv: string | undefined;
	/** The NAME models.json's `apiKey` gives; looked at before the declared one (spec/extensions.md §11, the order of credentials). */
	modelsJsonKeyEnv?: string | undefined;
	/** The models.json that gave it, for messages. */
	modelsJsonPath?: string | undefined;
	/** False: anonymous, no key is sent. */
	requiresAuth: boolean;
}

/** The bindings of one catalogue generation, by provider id; a reload builds new ones. */
export class ExecutionBindings {
	readonly #bindings = new Map<string, ExecutionBinding>();

	set(binding: ExecutionBinding): void {
		this.#bindings.set(binding.provider, Object.freeze({...binding, headers: Object.freeze({...binding.headers})}));
	}

	/** A copy: whoever uses it cannot change the host's. */
	get(provider: string): ExecutionBinding | undefined {
		const binding = this.#bindings.get(provider);
		return binding ? {...binding, headers: {...binding.headers}} : undefined;
	}
}
