import type {ExtensionUi} from '../../core/session/start-extensions.js';
import {printable} from '../../shared/output.js';
import {describeThrown} from '../../core/extensions/describe-thrown.js';
import {readRenderedText} from '../rendered-text.js';

/**
 * The extensions' Markdown transformers as one function of an answer's text,
 * for the chat screen (line mode and -p show the model's text as it came).
 * Each sees the previous one's text; `{}`, nothing or a throw leaves it, and a
 * transformer that throws or answers wrongly is reported once, not on every
 * block. What comes out is made printable like everything the screen shows.
 */
export function chainMarkdownTransformers(transformers: ExtensionUi['markdownTransformers'], report: (message: string) => void): (text: string) => string {
	const reported = new Set<string>();
	const once = (extension: string, problem: string) => {
		if (reported.has(extension)) return;
		reported.add(extension);
		report(`the Markdown transformer of extension ${extension} ${problem}; the text is shown without it`);
	};

	return text => {
		let current = text;
		for (const {extension, transform} of transformers) {
			let answer: unknown;
			try {
				answer = transform({text: current});
			} catch (error) {
				once(extension, `failed: ${describeThrown(error)}`);
				continue;
			}

			const next = readRenderedText(answer);
			if (next === null) once(extension, 'answered neither {text}, {lines} nor a string (a transformer is synchronous: it runs as the screen draws)');
			else if (next !== undefined) current = next;
		}

		return printable(current);
	};
}
