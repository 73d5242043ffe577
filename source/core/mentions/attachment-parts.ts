import type {ImagePart, TextPart, UserContent} from '../messages.js';

/**
 * How an attached file travels in a user message: after the typed text, a
 * text part per file under the read tool's header (`==> path <==`), and per
 * image a header part (`==> path <== (image/png, N bytes)`) followed by the
 * `image_url` part. The transcript reads the attachments back from the
 * content itself (`attachmentsOf`), so a resumed session shows them as the
 * live one did; nothing else is stored.
 */

export interface Attachment {
	path: string;
	kind: 'text' | 'image';
	/** The file's size. */
	bytes: number;
	/** A text file over the limit: the bytes attached (its start, at a line end). */
	keptBytes?: number;
	/** An image's type, from its signature. */
	mediaType?: string;
}

const header = (path: string) => `==> ${path} <==`;
const imageHeader = /^==> (.+) <== \((image\/[a-z]+), (\d+) bytes\)$/;
const textHeader = /^==> (.+) <==\n/;
/** The note a cut text ends with; its numbers are read back for the transcript. */
const cutNote = /\n\[… cut: the first (\d+) of (\d+) bytes are attached[^\]]*\]$/;

export function textAttachmentPart(path: string, body: string, cut: {kept: number; size: number; nextLine: number} | null): TextPart {
	const note = cut ? `\n[… cut: the first ${cut.kept} of ${cut.size} bytes are attached (the attachment limit); read the rest with the read tool from line ${cut.nextLine}]` : '';
	return {type: 'text', text: `${header(path)}\n${body}${note}`};
}

export function imageAttachmentParts(path: string, mediaType: string, bytes: number, url: string): [TextPart, ImagePart] {
	return [
		{type: 'text', text: `${header(path)} (${mediaType}, ${bytes} bytes)`},
		{type: 'image_url', image_url: {url}},
	];
}

/** The typed text of a user message and the files attached to it, read back from its content. */
export function attachmentsOf(content: UserContent): {text: string; attachments: Attachment[]} {
	if (typeof content === 'string') return {text: content, attachments: []};
	const [first, ...rest] = content;
	const text = first?.type === 'text' ? first.text : '';
	const attachments: Attachment[] = [];
	for (const [index, part] of rest.entries()) {
		if (part.type !== 'text') continue;
		const image = imageHeader.exec(part.text);
		if (image) {
			if (rest[index + 1]?.type === 'image_url') attachments.push({path: image[1]!, kind: 'image', bytes: Number(image[3]), mediaType: image[2]!});
			continue;
		}

		const file = textHeader.exec(part.text);
		if (!file) continue;
		const cut = cutNote.exec(part.text);
		const body = part.text.slice(file[0].length);
		attachments.push(cut ? {path: file[1]!, kind: 'text', bytes: Number(cut[2]), keptBytes: Number(cut[1])} : {path: file[1]!, kind: 'text', bytes: Buffer.byteLength(body)});
	}

	return {text, attachments};
}
