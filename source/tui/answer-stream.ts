import type {ChatState, TranscriptItem} from './chat-state.js';

/** The store's state as the stream reads and changes it; the store decides when listeners hear of it. */
export interface StreamState {
	get(): ChatState;
	/** Changes the state without telling the listeners. */
	set(change: Partial<ChatState>): void;
	/** A new transcript item's key. */
	key(): string;
}

/**
 * Answer text on its way from the stream to the scrollback. With Markdown,
 * block by block (a paragraph once a blank line ends it, a fence once it
 * closes…), the open block staying in `partial`; without, line by line, the
 * line not yet ended staying in `partial`. Finished text goes through the
 * extensions' Markdown transformers, each piece once.
 */
export class AnswerStream {
	readonly #state: StreamState;
	/** Completed lines of streamed text not yet moved to `finished` (plain text): one item per frame, not per line. */
	#lines: string[] = [];
	/** Finished Markdown blocks of this answer so far: the next one gets a blank row above it. */
	#answerBlocks = 0;
	/** Streamed Markdown not yet split into blocks: split once a frame, not on every delta. */
	#unsplit = false;
	/** The open Markdown goes on the last finished block (a long paragraph cut between lines): no blank row above it. */
	#continues = false;
	/** Some of this answer went to `finished`, which the scrollback shows and nothing takes back. */
	#wrote = false;
	/** The extensions' Markdown transformers, run on each block of answer text as it is finished. */
	#transform: (text: string) => string = text => text;

	constructor(state: StreamState) {
		this.#state = state;
	}

	/** The extensions' transformers from now on (they loaded, or were loaded again). */
	setTransform(transform: (text: string) => string): void {
		this.#transform = transform;
	}

	/** A whole answer's text through the transformers (a resumed session's history). */
	transform(text: string): string {
		return this.#transform(text);
	}

	/** Appends streamed text and returns what stays open: completed lines (plain) or finished blocks (Markdown) move to the scrollback at the next frame. */
	append(text: string): string {
		const {partial, markdown} = this.#state.get();
		const all = partial + text;
		if (markdown) {
			this.#unsplit = true;
			return all;
		}

		const end = all.lastIndexOf('\n');
		if (end !== -1) this.#lines.push(all.slice(0, end));
		return end === -1 ? all : all.slice(end + 1);
	}

	/**
	 * An extension replaced the answer's text (`MessageEnd`): what was not
	 * written yet goes, and the replacement takes its place. Returns false
	 * when part of the answer is in the scrollback already: the answer is then
	 * over and the caller shows the replacement below it as a new one.
	 */
	replace(text: string): boolean {
		this.#state.set({partial: ''});
		this.#lines = [];
		this.#unsplit = false;
		if (this.#wrote) {
			this.#answerBlocks = 0;
			this.#continues = false;
			this.#wrote = false;
			return false;
		}

		this.#state.set({partial: this.append(text)});
		return true;
	}

	/** The answer's text is over (a tool call, an error, the end of the turn): whatever is open is finished as it stands. */
	end(): void {
		const {partial, markdown} = this.#state.get();
		this.#state.set({partial: ''});
		this.#unsplit = false;
		if (markdown) {
			if (partial.trim() !== '') {
				const {finished, open, continues} = markdown.split(partial);
				this.#addBlocks(finished, continues);
				this.#addBlocks([open], false);
			}

			this.#answerBlocks = 0;
			this.#continues = false;
			this.#wrote = false;
			return;
		}

		if (partial !== '') this.#lines.push(partial);
		this.flushLines();
		this.#wrote = false;
	}

	/** The open Markdown's finished blocks move to `finished`; what is left stays in the live area. */
	splitOpen(): void {
		const {partial, markdown} = this.#state.get();
		if (!this.#unsplit || !markdown) return;
		this.#unsplit = false;
		const {finished, open, continues} = markdown.split(partial);
		if (finished.length === 0) return;
		this.#state.set({partial: open});
		this.#addBlocks(finished, continues);
	}

	/** The completed plain lines move to `finished` as one item. */
	flushLines(): void {
		if (this.#lines.length === 0) return;
		const text = this.#transform(this.#lines.join('\n'));
		this.#lines = [];
		this.#append([{kind: 'assistant', key: this.#state.key(), text, markdown: false, gap: false}]);
	}

	/** Each block through the extensions' transformers, then one item each, written once. */
	#addBlocks(blocks: readonly string[], continues: boolean): void {
		const items: TranscriptItem[] = [];
		for (const source of blocks) {
			const block = source.replace(/\n+$/, '');
			if (block.trim() === '') continue;
			items.push({kind: 'assistant', key: this.#state.key(), text: this.#transform(block), markdown: true, gap: this.#answerBlocks > 0 && !this.#continues});
			this.#answerBlocks++;
			this.#continues = false;
		}

		// Set after the blocks: it is the open text, finished later, that goes on the last of them.
		if (items.length > 0) this.#continues = continues;

		if (items.length > 0) this.#append(items);
	}

	#append(items: TranscriptItem[]): void {
		this.#wrote = true;
		this.#state.set({finished: [...this.#state.get().finished, ...items]});
	}
}
