import {UsageError} from '../errors.js';

/** The permission modes (docs/approvals.md, "Permission modes"), in the order Shift+Tab cycles them. */
export const permissionModeNames = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;

export type PermissionModeName = (typeof permissionModeNames)[number];

/** What the gate and the turn read: the mode as it is at the moment of the call. */
export interface PermissionModeSource {
	readonly current: PermissionModeName;
}

/** The native tools plan mode lets run: they only read (outside the workspace they still ask). */
export const planModeTools: ReadonlySet<string> = new Set(['read', 'glob', 'search', 'view_image', 'docs']);

/** The paragraph added to the system prompt of each request made in plan mode. */
export const PLAN_MODE_NOTE = [
	'You are in plan mode: the person wants a plan before anything changes.',
	'Only read-only tools run (read, glob, search, view_image, docs); every other call is refused.',
	'Investigate as needed, then present your plan as your answer and stop: the person accepts it to leave plan mode, or asks you to keep planning.',
].join(' ');

/**
 * The run's permission mode, held once by the agent: the gate and the turn
 * read `current` at each call, so a change (Shift+Tab, accepting a plan)
 * applies to the next call. Bypass is reachable only when the run started
 * with it allowed (`--yolo`, `--permission-mode bypassPermissions`), so a
 * key press never silently turns approvals off.
 */
export class PermissionMode implements PermissionModeSource {
	readonly bypassAllowed: boolean;
	#current: PermissionModeName;

	constructor(initial: PermissionModeName = 'default') {
		this.#current = initial;
		this.bypassAllowed = initial === 'bypassPermissions';
	}

	get current(): PermissionModeName {
		return this.#current;
	}

	/** Sets the mode; bypass only when the run allowed it (throws otherwise). */
	set(mode: PermissionModeName): void {
		if (mode === 'bypassPermissions' && !this.bypassAllowed) throw new Error('bypassPermissions needs a run started with --yolo or --permission-mode bypassPermissions');
		this.#current = mode;
	}

	/** The next mode in Shift+Tab's order (skipping bypass unless allowed), taken and returned. */
	cycle(): PermissionModeName {
		const order = permissionModeNames.filter(mode => mode !== 'bypassPermissions' || this.bypassAllowed);
		const next = order[(order.indexOf(this.#current) + 1) % order.length]!;
		this.#current = next;
		return next;
	}
}

/** Reads `--permission-mode` (or the core API's `permissionMode`); `yolo` stands for bypassPermissions. */
export function readPermissionMode(value: string | undefined, yolo: boolean): PermissionModeName {
	if (value === undefined) return yolo ? 'bypassPermissions' : 'default';
	if (!(permissionModeNames as readonly string[]).includes(value)) throw new UsageError(`--permission-mode must be one of ${permissionModeNames.join(', ')} (got "${value}")`);
	if (yolo && value !== 'bypassPermissions') throw new UsageError(`--yolo is --permission-mode bypassPermissions; it cannot go with --permission-mode ${value}`);
	return value as PermissionModeName;
}
