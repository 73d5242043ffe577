import type {PermissionModeName} from './core/agent/permission-mode.js';
import type {ExtensionFlags} from './core/extensions/cli-flags.js';
import type {DevLoop} from './core/extensions/dev-loop.js';

/** What the command line asked for, as every head and `i dev` read it (main-flags.ts parses it). */
export interface CliOptions {
	/** The prompt of -p; '' when -p came without text (read stdin); undefined without -p. */
	print: string | undefined;
	json: boolean;
	config: string | undefined;
	cwd: string | undefined;
	session: string | undefined;
	sessionName: string | undefined;
	/** `-c`, `--continue`: this workspace's latest session. */
	continueLatest?: boolean | undefined;
	/** `--resume`: the chat screen starts with the picker of this workspace's sessions. */
	resume?: boolean | undefined;
	maxSteps: number | undefined;
	/** `--api-key KEY`: for the provider the config selects, this run only; never stored or shown. */
	apiKey: string | undefined;
	yolo: boolean;
	/** `--permission-mode MODE` (or `default`, or bypassPermissions with --yolo). */
	permissionMode?: PermissionModeName | undefined;
	logo: boolean;
	/** `--extension PATH`, repeatable. */
	extensions: string[];
	/** `--extensions-dir DIR`, repeatable. */
	extensionDirs: string[];
	/** `--skill DIR`, repeatable. */
	skills: string[];
	/** `--prompt-template DIR`, repeatable. */
	promptTemplates: string[];
	noExtensions: boolean;
	trustProject: boolean;
	/** False with `--no-agents-md`: no AGENTS.md goes into the system prompt. */
	agentsMd?: boolean | undefined;
	/** False with `--no-sandbox`: the model's shell commands run outside the sandbox (docs/sandbox.md). */
	sandbox?: boolean | undefined;
	/** `--provider ID`: a catalogue provider for this run. */
	provider?: string | undefined;
	/** `--model ID` or `provider/model`: a catalogue model for this run. */
	model?: string | undefined;
	/** `--list-models`: print the catalogue (with `--json`, a JSON array) and exit. */
	listModels?: boolean | undefined;
	/** Flags no built-in flag is, and the words after them, for the extensions' own flags (registerFlag) to claim. */
	commandLine: ExtensionFlags;
	/** `i dev`: the extension being developed (its first staged build is in `extensions`), rebuilt on change and on /reload. */
	dev?: DevLoop | undefined;
	/** `i dev-local` (`i dev --local-only`): only `extensions` load, and of the settings only the project's (its skills and prompts). */
	localOnly?: boolean | undefined;
}
