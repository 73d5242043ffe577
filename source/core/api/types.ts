// The public types of `i-agent/core`. They import nothing but the core's
// event and message shapes, so the published declarations stay a handful
// of files that name no package (scripts/declarations.js checks that).
import type {CoreEvent} from '../events.js';
import type {Message, UserContent} from '../messages.js';

/**
 * The model config as an object, checked like a config.json file (see
 * docs/configuration.md): these fields and any other the file may have.
 */
export type Config = ProtocolConfig | CatalogueConfig;

/** Choosing by protocol: the built-in wire (or a provider worker's, or an extension provider's id). */
export interface ProtocolConfig {
	/** `openai`, `deepseek`, `anthropic` or `responses`, or one a provider worker speaks. */
	protocol: string;
	model: string;
	/** The endpoint; the provider's default otherwise. */
	base_url?: string;
	/** The NAME of the environment variable that holds the API key, never the key. */
	api_key_env?: string;
	/** Manifests and builtin descriptors, relative to the config folder. */
	plugins?: string[];
	max_steps?: number;
	max_tokens?: number;
	[field: string]: unknown;
}

/** Choosing by catalogue (docs/providers.md): the catalogue gives the wire, the endpoint and the key's variable. */
export interface CatalogueConfig {
	/** A catalogue provider's id: `deepseek`, `openai`, a models.json provider. */
	provider: string;
	/** One of its models; its first when absent. */
	model?: string;
	plugins?: string[];
	max_steps?: number;
	max_tokens?: number;
	[field: string]: unknown;
}

/** A tool call that needs approval, as the approval prompt of `i` shows it. */
export interface ApprovalRequest {
	/** The tool call's ID, as in the `tool_call` event. */
	id: string;
	/** The tool's name: `edit`, `shell`, or a plugin's tool. */
	name: string;
	arguments: Record<string, unknown>;
	/** Who provides the tool: `native`, `official module memory`, `extension todo (FILE)`, `MCP server docs (FILE)`, `plugin worker of FILE`. */
	owner: string;
	/** One line: "Edit src/app.ts", "Run: npm test". */
	title: string;
	/** The whole picture: a unified diff, the command and its working folder, or an external tool's arguments. */
	detail: string;
	/** A plugin's tool (such calls always ask unless `yolo`). */
	external: boolean;
}

export interface OpenSessionOptions {
	/**
	 * The workspace: the folder the tools read and change.
	 * @default process.cwd()
	 */
	cwd?: string;

	/**
	 * A config file, or the config itself. An object's relative paths
	 * resolve against the config folder (`I_CONFIG_DIR`, `~/.i/config`).
	 * @default '<config folder>/config.json'
	 */
	config?: string | Config;

	/**
	 * The session file to resume, or to create when it does not exist.
	 * @default a new file in the workspace's sessions folder, `<data folder>/workspaces/<id>/sessions/session-<time>.json`
	 */
	sessionFile?: string;

	/**
	 * Model requests one turn may make.
	 * @default the config's `max_steps`
	 */
	maxSteps?: number;

	/**
	 * Asked about each tool call that needs approval (edits, writes, shell
	 * commands, plugins' tools) before it runs; `true` allows it. A call is
	 * never allowed silently: without this callback, or when it throws, the
	 * call is denied and the model is told why.
	 */
	approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;

	/**
	 * Allow every tool call without asking, like `i --yolo`. An approval
	 * policy plugin may still deny a call.
	 * @default false
	 */
	yolo?: boolean;

	/**
	 * The permission mode the session starts in, as `i --permission-mode`:
	 * `default`, `acceptEdits` (edits inside the workspace run without
	 * asking), `plan` (only read-only tools run) or `bypassPermissions`
	 * (the same as `yolo`).
	 * @default 'default'
	 */
	permissionMode?: 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';

	/**
	 * Read the AGENTS.md files (`<config folder>/AGENTS.md`, then the
	 * repository root down to the workspace) into the system prompt, like
	 * `i`; `false` is `i --no-agents-md`.
	 * @default true
	 */
	agentsMd?: boolean;

	/** Receives the start's events: `session` and any `warning`. */
	onEvent?: (event: CoreEvent) => void;

	/** Cancels the start: workers already started are stopped. */
	signal?: AbortSignal;
}

export interface RunOptions {
	/** Receives each event of the turn as it happens. */
	onEvent?: (event: CoreEvent) => void;

	/**
	 * Stops the turn: the last complete step stays saved and `run` rejects
	 * with the signal's reason.
	 */
	signal?: AbortSignal;
}

/** A turn that finished. */
export interface TurnResult {
	/** `stop`: the model answered; `length` or `content_filter`: the provider cut the answer short. */
	reason: 'stop' | 'length' | 'content_filter';
	/** Model requests the turn made. */
	steps: number;
	/** The model's last answer, without its thinking. */
	text: string;
}

/** A session open in a workspace: its history is a file, and it runs one turn at a time. */
export interface Session {
	readonly id: string;
	/** The session file. */
	readonly path: string;
	/** The workspace's canonical path. */
	readonly workspace: string;
	/** The history so far, resumed messages included; it grows with each step. */
	readonly messages: readonly Message[];

	/**
	 * Runs one turn: the prompt goes to the model, its tool calls run (or
	 * are denied), until it answers. Rejects with a TurnFailedError when the
	 * turn fails or runs out of steps, and with the signal's reason when it
	 * is stopped.
	 */
	run(prompt: UserContent, options?: RunOptions): Promise<TurnResult>;

	/**
	 * Runs one turn like `run`, as its events: the iteration ends after the
	 * `done` event, then throws what `run` would reject with. Leaving the
	 * loop early stops the turn.
	 */
	stream(prompt: UserContent, options?: Pick<RunOptions, 'signal'>): AsyncIterable<CoreEvent>;

	/** Stops a running turn, then the workers, and releases the session file. */
	close(): Promise<void>;
}

export type {CoreEvent} from '../events.js';
export type {Message, UserContent, TextPart, ImagePart} from '../messages.js';
export type {Usage} from '../usage.js';
