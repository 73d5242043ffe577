import {OpenQuestion, QuestionLine} from './brokers/open-question.js';

/**
 * A question of the screen's own (a chooser, the key field) on the one
 * question line: `ask` waits for the line, shows what `pending` makes of the
 * question's number and its `settle`, and resolves with the first answer,
 * or null when cancelled (Esc, or `cancel` when the person leaves).
 */
export class LineQuestion<Pending, Answer> extends OpenQuestion<Pending> {
	readonly #line: QuestionLine;
	#count = 0;
	#cancel: (() => void) | undefined;

	constructor(line: QuestionLine = new QuestionLine()) {
		super();
		this.#line = line;
	}

	/** The person left: an open question closes unanswered. */
	cancel(): void {
		this.#cancel?.();
	}

	protected async askOnLine(pending: (count: number, settle: (value: Answer | null) => void) => Pending): Promise<Answer | null> {
		const release = this.#line.tryTake() ?? (await this.#line.take());
		this.#count += 1;
		try {
			return await new Promise<Answer | null>(resolve => {
				let settled = false;
				const settle = (value: Answer | null) => {
					if (settled) return;
					settled = true;
					this.#cancel = undefined;
					this.show(null);
					resolve(value);
				};

				this.#cancel = () => settle(null);
				this.show(pending(this.#count, settle));
			});
		} finally {
			release();
		}
	}
}
