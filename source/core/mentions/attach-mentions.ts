import {open, stat} from 'node:fs/promises';
import type {TextPart, ImagePart, UserContent} from '../messages.js';
import {describeFileError, looksBinary} from '../tools/file-content.js';
import {formatBytes, plural} from '../tools/format.js';
import {MAX_IMAGES_PER_BATCH, MAX_IMAGE_BYTES, sniffImageType, toDataUrl} from '../tools/images.js';
import {resolvePath} from '../tools/paths.js';
import {MAX_READ_FILES} from '../tools/read.js';
import {imageAttachmentParts, textAttachmentPart, type Attachment} from './attachment-parts.js';
import {parseMentions} from './parse-mentions.js';

/**
 * A text file attached by `@path` is cut past this many bytes (at a line
 * end): about what one read call may return in a batch (tool-output-limit.ts
 * `BATCH_OUTPUT_CHARS`, 64 000 characters), so a mention never floods the
 * context more than the model's own read would.
 */
export const MAX_ATTACHED_TEXT_BYTES = 64 * 1024;
/** Files one message may attach, as one read call may read (read.ts `MAX_READ_FILES`). */
export const MAX_ATTACHED_FILES = MAX_READ_FILES;
/** spec/platform.md §5: 8 images per message, at most 8 MiB each (images.ts). */
export {MAX_IMAGES_PER_BATCH as MAX_ATTACHED_IMAGES, MAX_IMAGE_BYTES} from '../tools/images.js';

/**
 * Mentions looked up in one message: each costs a few file-system calls, and
 * a pasted text full of `@decorators` must not cost thousands. Later ones
 * stay plain text, with a notice.
 */
export const MAX_MENTIONS_CHECKED = 100;

/** Bytes read to tell an image by its signature (WebP's is the longest: 12). */
const SIGNATURE_BYTES = 16;

export type PromptContent =
	| {
			ok: true;
			/** The prompt as a model request carries it: the text alone when nothing is attached, else text parts and images. */
			content: UserContent;
			/** The typed text, `\@` escapes made plain. */
			text: string;
			attachments: Attachment[];
			/** What was mentioned but not attached, and why (a binary file, a folder, a path out of the workspace). */
			notices: string[];
	  }
	| {
			ok: false;
			/** Why the message is not sent: an image over 8 MiB, a ninth image, too many files. Nothing was dropped silently. */
			error: string;
			notices: string[];
	  };

/**
 * Turns a typed prompt into user content (the chat screen, line mode and `-p`
 * alike): each `@path` mention that names a regular file in the workspace
 * attaches it. A mention that names nothing stays plain text; one that leaves
 * the workspace (`..`, an absolute path, a symlink out) is refused with a
 * notice, as are folders and binary files that are not images. An image past
 * the limits of spec/platform.md §5, or more files than a message takes,
 * refuses the whole message: the person decides what to leave out.
 */
export async function promptContent(prompt: string, workspace: string): Promise<PromptContent> {
	const {text, mentions} = parseMentions(prompt);
	const notices: string[] = [];
	const attachments: Attachment[] = [];
	const parts: Array<TextPart | ImagePart> = [];
	const seen = new Set<string>();
	let images = 0;
	if (mentions.length > MAX_MENTIONS_CHECKED) {
		notices.push(`the message has ${mentions.length} @ words; only the first ${MAX_MENTIONS_CHECKED} were looked up as files, the rest stay plain text`);
	}

	for (const mention of mentions.slice(0, MAX_MENTIONS_CHECKED)) {
		const target = await resolvePath(workspace, mention.path);
		if (seen.has(target.canonical)) continue;
		let stats;
		try {
			stats = await stat(target.absolute);
		} catch {
			// Names nothing (an e-mail-like word, `@types/node`): plain text.
			continue;
		}

		seen.add(target.canonical);
		const name = `@${mention.path}`;
		if (!target.inside) {
			notices.push(
				`${name} is outside the workspace${target.canonical === target.absolute ? '' : ` (it leads to ${target.canonical})`}: not attached; the model can read it with the read tool, which asks first`,
			);
			continue;
		}

		if (stats.isDirectory()) {
			notices.push(`${name} is a folder: not attached (mention its files, or ask the model to look at it)`);
			continue;
		}

		if (!stats.isFile()) {
			notices.push(`${name} is not a regular file: not attached`);
			continue;
		}

		if (attachments.length === MAX_ATTACHED_FILES) {
			return {ok: false, error: `the message mentions more than ${MAX_ATTACHED_FILES} files (the limit a message attaches): not sent; mention fewer`, notices};
		}

		const display = target.display;
		// Unreadable (permissions, gone since the stat): a notice, the message still goes.
		const read = async (limit: number): Promise<Buffer | null> => {
			try {
				return await readStart(target.canonical, limit);
			} catch (error) {
				notices.push(`${describeFileError(error, name)}: not attached`);
				return null;
			}
		};

		const head = await read(SIGNATURE_BYTES);
		if (!head) continue;

		const mediaType = sniffImageType(head);
		if (mediaType) {
			if (stats.size > MAX_IMAGE_BYTES) {
				return {
					ok: false,
					error: `${name} is ${formatBytes(stats.size)} (${stats.size} bytes), over the ${formatBytes(MAX_IMAGE_BYTES)} image limit: the message is not sent; remove the mention or use a smaller image`,
					notices,
				};
			}

			if (++images > MAX_IMAGES_PER_BATCH) {
				return {ok: false, error: `the message mentions more than ${MAX_IMAGES_PER_BATCH} images (the limit per message): not sent; mention at most ${MAX_IMAGES_PER_BATCH}`, notices};
			}

			const bytes = await read(MAX_IMAGE_BYTES + 1);
			if (!bytes) continue;
			if (bytes.length > MAX_IMAGE_BYTES) return {ok: false, error: `${name} grew past the ${formatBytes(MAX_IMAGE_BYTES)} image limit while it was read: not sent`, notices};
			parts.push(...imageAttachmentParts(display, mediaType, bytes.length, toDataUrl(mediaType, bytes)));
			attachments.push({path: display, kind: 'image', bytes: bytes.length, mediaType});
			continue;
		}

		const bytes = await read(MAX_ATTACHED_TEXT_BYTES + 1);
		if (!bytes) continue;
		if (looksBinary(bytes)) {
			notices.push(`${name} is a binary file (not a PNG, JPEG, GIF or WebP image): not attached`);
			continue;
		}

		const size = Math.max(stats.size, bytes.length);
		const cut = size > MAX_ATTACHED_TEXT_BYTES ? cutAtLineEnd(bytes) : null;
		const body = (cut ?? bytes).toString('utf8');
		parts.push(textAttachmentPart(display, body, cut ? {kept: cut.length, size, nextLine: countNewlines(cut) + 1} : null));
		attachments.push(cut ? {path: display, kind: 'text', bytes: size, keptBytes: cut.length} : {path: display, kind: 'text', bytes: size});
		if (cut) notices.push(`${name} is ${formatBytes(size)}: its first ${formatBytes(cut.length)} are attached (the limit is ${formatBytes(MAX_ATTACHED_TEXT_BYTES)})`);
	}

	if (parts.length === 0) return {ok: true, content: text, text, attachments, notices};
	return {ok: true, content: [{type: 'text', text}, ...parts], text, attachments, notices};
}

/** A one-line summary of what a message attached, for the transcript: `attached a.ts (1.2 KiB), logo.png (image, 3 KiB)`. */
export function describeAttachments(attachments: readonly Attachment[]): string | null {
	if (attachments.length === 0) return null;
	const items = attachments.map(item => {
		if (item.kind === 'image') return `${item.path} (image, ${formatBytes(item.bytes)})`;
		if (item.keptBytes !== undefined) return `${item.path} (${formatBytes(item.bytes)}, first ${formatBytes(item.keptBytes)})`;
		return `${item.path} (${formatBytes(item.bytes)})`;
	});
	return `attached ${plural(attachments.length, 'file')}: ${items.join(', ')}`;
}

/** The text's start within the limit, ending at its last line end (or at the limit, on a character boundary, for one long line). */
function cutAtLineEnd(bytes: Buffer): Buffer {
	const within = bytes.subarray(0, MAX_ATTACHED_TEXT_BYTES);
	const newline = within.lastIndexOf(0x0a);
	if (newline !== -1) return within.subarray(0, newline + 1);
	let end = within.length;
	// Back off while the first byte left out continues a character, so none is split.
	while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
	return within.subarray(0, end);
}

function countNewlines(bytes: Buffer): number {
	let count = 0;
	for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) count++;
	return count;
}

/** At most `limit` bytes from the file's start. */
async function readStart(file: string, limit: number): Promise<Buffer> {
	const handle = await open(file, 'r');
	try {
		const buffer = Buffer.alloc(limit);
		let filled = 0;
		while (filled < limit) {
			const {bytesRead} = await handle.read(buffer, filled, limit - filled, filled);
			if (bytesRead === 0) break;
			filled += bytesRead;
		}

		return buffer.subarray(0, filled);
	} finally {
		await handle.close();
	}
}
