import {UsageError} from '../errors.js';

/** `${NAME}` and `${NAME:-default}`, as .mcp.json files of other tools write them. */
const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `text` with every `${NAME}` replaced by that variable of `environment`
 * (`${NAME:-fallback}` for one that may be unset). An unset variable without
 * a fallback is a UsageError naming it and `where` (the file, the server and
 * the field): a server started with an empty API key fails later and less clearly.
 */
export function expandVariables(text: string, environment: NodeJS.ProcessEnv, where: string): string {
	return text.replaceAll(reference, (_match, name: string, fallback: string | undefined) => {
		const value = environment[name];
		if (value !== undefined && value !== '') return value;
		if (fallback !== undefined) return fallback;
		throw new UsageError(`${where}: the environment variable ${name} is not set (\${${name}}); set it, or write \${${name}:-default}`);
	});
}
