import type {TrustQuestion} from '../../core/session/decide-trust.js';
import {printable, printableExact} from '../../shared/output.js';
import type {PromptObserver, UiPrompt} from '../ui-prompt-events.js';
import {OpenQuestion, QuestionLine} from './open-question.js';

export interface PendingTrust {
	question: TrustQuestion;
	answer(trusted: boolean): void;
}

/** The question went away unanswered: nothing is remembered, and the start ends. */
export class TrustUnanswered extends Error {
	override name = 'TrustUnanswered';
}

/**
 * How the chat screen asks whether the workspace's own extensions may run,
 * its MCP servers start and its allow rules count (ExtensionOptions.askTrust;
 * spec/extensions.md §8): the question the trust prompt shows, and the
 * answer it gives back. The core remembers the answer.
 */
export class TrustBroker extends OpenQuestion<PendingTrust> {
	#leave: ((error: Error) => void) | undefined;
	readonly #observer: PromptObserver | undefined;
	readonly #line: QuestionLine;

	/** `line` is shared with the screen's other questions. */
	constructor(observer?: PromptObserver, line: QuestionLine = new QuestionLine()) {
		super();
		this.#observer = observer;
		this.#line = line;
	}

	readonly ask = async (question: TrustQuestion): Promise<boolean> => {
		// Paths come from the file system: no control character reaches the terminal.
		const shown: TrustQuestion = {
			workspace: printable(question.workspace),
			extensions: question.extensions.map(path => printable(path)),
			mcpServers: question.mcpServers.map(server => printable(server)),
			// A rule says what would run unasked, from a file anyone may have written: its invisible and reordering characters are marked.
			allowRules: question.allowRules.map(rule => printableExact(rule)),
			sandboxSettings: question.sandboxSettings.map(setting => printableExact(setting)),
			modelEndpoints: question.modelEndpoints.map(endpoint => printableExact(endpoint)),
			rememberedIn: printable(question.rememberedIn),
		};
		const prompt: UiPrompt = {
			id: 'trust',
			kind: 'trust',
			workspace: question.workspace,
			extensions: question.extensions,
			mcpServers: question.mcpServers,
			allowRules: question.allowRules,
			sandboxSettings: question.sandboxSettings,
			modelEndpoints: question.modelEndpoints,
		};
		const withdraw = new AbortController();
		this.#leave = error => withdraw.abort(error);
		let release: () => void;
		try {
			release = this.#line.tryTake() ?? (await this.#line.take(withdraw.signal));
		} finally {
			this.#leave = undefined;
		}

		this.#observer?.started(prompt);
		try {
			const trusted = await new Promise<boolean>((resolve, reject) => {
				this.#leave = reject;
				this.show({question: shown, answer: resolve});
			});
			this.#observer?.ended(prompt, trusted ? 'yes' : 'no');
			return trusted;
		} catch (error) {
			this.#observer?.ended(prompt, 'cancelled');
			throw error;
		} finally {
			this.#leave = undefined;
			this.show(null);
			release();
		}
	};

	/** Leaving while the question is open: it is not answered (and not remembered). */
	cancel(): void {
		this.#leave?.(new TrustUnanswered('the trust question was left unanswered'));
	}
}
