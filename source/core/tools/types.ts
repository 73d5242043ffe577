export interface ToolContext {
	/** Canonical absolute workspace path. */
	workspace: string;
	signal: AbortSignal;
	/** Characters the model-facing output may take; tools may cut smarter, the core cuts anything over. */
	outputLimit: number;
	/** The session's ID; absent for an ephemeral session. */
	sessionId?: string;
	/** The model's ID of this call; absent when a tool runs outside a model's batch. */
	toolCallId?: string;
	/** The child agent whose call this is (its childId); absent for the parent's own calls. A child's calls cannot start children. */
	child?: string;
	/** Partial progress while the call runs (extension tools' `ctx.onUpdate`); the core drops it after the call settled. */
	onUpdate?(text: string): void;
}

export interface ToolResult {
	/** What the model sees. */
	output: string;
	/**
	 * Image parts (`ImagePart[]` from the native tools). An external tool's
	 * come unchecked from its worker: every result's images are checked after
	 * `after_tool` (spec/platform.md §5), which may repair or drop them.
	 */
	images?: unknown;
	isError?: boolean;
	/** What a person sees, when it should differ from `output` (a short summary). */
	display?: string;
}

/** What a person must agree to before a tool runs. */
export interface ApprovalAsk {
	/** One line: "Edit src/app.ts", "Run: npm test". */
	title: string;
	/** The whole picture: a unified diff, the command and its working folder. */
	detail: string;
	/** Set by edit and write when every file is inside the workspace: accept-edits mode lets such a call run. */
	insideWorkspace?: boolean;
	/** Set by shell for a command that runs outside the sandbox while the sandbox is on (asked for, or none could start): only the person may allow it, never --yolo, a mode or an allow rule. */
	outsideSandbox?: boolean;
}

/**
 * A validated call, ready to run. `ask` is null when the call may run without
 * approval. Anything the approval shows (an edit's snapshot) is captured in
 * the plan, so `run` can check that it still holds.
 */
export interface ToolPlan {
	ask: ApprovalAsk | null;
	run(): Promise<ToolResult>;
}

export interface Tool {
	/** Set on tools a manifest declares: they always ask unless --yolo. */
	readonly external?: boolean;
	/** Who provides it, for approvals (tool-owner.ts): `official module memory`, `extension todo (FILE)`; absent for a native tool. */
	readonly owner?: string;
	/**
	 * Set on tools that only read (native read, glob, search, view_image,
	 * docs; an MCP tool its server annotates `readOnlyHint`; an extension tool
	 * that says so): a batch runs such calls side by side (tool-batch.ts).
	 */
	readonly readOnly?: boolean;
	readonly name: string;
	readonly description: string;
	/** JSON Schema of the arguments object, as sent to the model. */
	readonly parameters: Record<string, unknown>;
	/**
	 * Validate the parsed arguments and plan the call. Throws `ToolInputError`
	 * for arguments the model must fix; the message goes back to the model.
	 */
	plan(args: Record<string, unknown>, context: ToolContext): Promise<ToolPlan>;
}

/** The model's arguments were wrong: returned to the model as a tool error. */
export class ToolInputError extends Error {
	override name = 'ToolInputError';
}

/** The tool could not do its work (file changed, command failed to start): returned to the model as a tool error. */
export class ToolRunError extends Error {
	override name = 'ToolRunError';
}
