import type {Ajv, ErrorObject, ValidateFunction} from 'ajv';

/**
 * JSON Schema through ajv, loaded only when a schema is first compiled:
 * importing and warming ajv costs tens of milliseconds, which a start without
 * external tools should not pay. Draft-07 unless the schema names 2020-12.
 */
let draft07: Promise<Ajv> | undefined;
let draft2020: Promise<Ajv> | undefined;

const draft2020Id = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

// Formats need ajv-formats, which we do not ship: ignored rather than refused (tool schemas use them as hints).
// No strict mode: third-party schemas carry keywords ajv does not know. No logger: the core never writes to the terminal.
const options = {strict: false, allErrors: true, validateFormats: false, logger: false} as const;

/** Compiles `schema` (ajv caches by object, so compiling the same object again is cheap); throws when it is not a valid schema. */
export async function compileJsonSchema(schema: Record<string, unknown>): Promise<ValidateFunction> {
	const ajv = typeof schema.$schema === 'string' && draft2020Id.test(schema.$schema) ? await ajv2020() : await ajv07();
	return ajv.compile(schema);
}

// ajv is CommonJS: its classes are read off `module.exports` (the default export), the one shape
// both Node and the bundler's split chunks give a dynamic import of it.
async function ajv07(): Promise<Ajv> {
	draft07 ??= import('ajv').then(module => new module.default.Ajv(options));
	return draft07;
}

async function ajv2020(): Promise<Ajv> {
	draft2020 ??= import('ajv/dist/2020.js').then(module => new module.default.Ajv2020(options));
	return draft2020;
}

/** A message long enough for the model to fix the first problems and retry, short enough to read. */
const MAX_LISTED_ERRORS = 10;

/**
 * Validation errors in words a model can act on, one clause each:
 * `files[0].offset must be >= 1; unknown field "mode"`. `root` names the value itself.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[], root: string): string {
	const clauses = [...new Set(errors.map(error => describeError(error, root)))];
	const listed = clauses.slice(0, MAX_LISTED_ERRORS).join('; ');
	return clauses.length > MAX_LISTED_ERRORS ? `${listed}; and ${clauses.length - MAX_LISTED_ERRORS} more` : listed;
}

function describeError(error: ErrorObject, root: string): string {
	const path = pointerKeys(error.instancePath);
	const params = error.params as Record<string, unknown>;
	switch (error.keyword) {
		case 'required':
			return `${fieldName([...path, String(params.missingProperty)], root)} is required`;
		case 'additionalProperties':
			return path.length === 0 ? `unknown field ${JSON.stringify(params.additionalProperty)}` : `${fieldName(path, root)} has unknown field ${JSON.stringify(params.additionalProperty)}`;
		case 'type':
			return `${fieldName(path, root)} must be ${String(params.type)
				.split(',')
				.map(type => typeWords[type] ?? type)
				.join(' or ')}`;
		case 'enum':
			return `${fieldName(path, root)} must be one of ${(params.allowedValues as unknown[]).map(value => JSON.stringify(value)).join(', ')}`;
		case 'const':
			return `${fieldName(path, root)} must be ${JSON.stringify(params.allowedValue)}`;
		default:
			return `${fieldName(path, root)} ${error.message ?? `fails "${error.keyword}"`}`;
	}
}

const typeWords: Record<string, string> = {
	string: 'a string',
	number: 'a number',
	integer: 'an integer',
	boolean: 'true or false',
	array: 'an array',
	object: 'an object',
	null: 'null',
};

/** `/files/0/offset` → ['files', 0, 'offset'] (JSON Pointer, RFC 6901). */
function pointerKeys(pointer: string): Array<string | number> {
	if (pointer === '') return [];
	return pointer
		.slice(1)
		.split('/')
		.map(part => part.replaceAll('~1', '/').replaceAll('~0', '~'))
		.map(part => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/** `files[0].offset`; the root's own name when the path is empty or starts with an index. */
function fieldName(path: ReadonlyArray<string | number>, root: string): string {
	let name = '';
	for (const key of path) name += typeof key === 'number' ? `[${key}]` : `${name === '' ? '' : '.'}${key}`;
	return name === '' || name.startsWith('[') ? `${root}${name}` : name;
}
