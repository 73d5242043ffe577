/**
 * DeepSeek's Files API on the wire, in one place so a correction is one
 * edit. From DeepSeek's own documentation (api-docs.deepseek.com, "Files
 * API", "Upload File", "Retrieve File", "Vision"): multipart `POST /files`
 * with `purpose` (`user_data` for images, sent before `file`) and the
 * optional pair `expires_after[anchor]` = `created_at`,
 * `expires_after[seconds]` (3600–2592000); `GET /files` (`after`, `limit`
 * 1–1000, `order`); `GET /files/{id}`; `DELETE /files/{id}`. A file object
 * is `{id, object: "file", bytes, created_at, filename, purpose,
 * expires_at?}`. A chat request refers to an uploaded image with the
 * content part `{"type": "file", "file_id": ID}` (the docs' third way to
 * send an image, beside the inline data URL and a public URL).
 */
import {randomBytes} from 'node:crypto';
import * as z from 'zod/mini';
import '../../zod-english.js';

/** The endpoint path below `base_url`. */
export const FILES_PATH = '/files';

/** The purpose DeepSeek asks for images. */
export const IMAGE_PURPOSE = 'user_data';

/** DeepSeek: an image uploaded through the Files API is at most 64 MiB. */
export const MAX_IMAGE_UPLOAD_BYTES = 64 * 1024 * 1024;

/** DeepSeek: one page of `GET /files` holds 1–1000 files; we ask for whole pages. */
export const LIST_PAGE_LIMIT = 1000;

/** An ID as it may appear in a URL path and a file: DeepSeek's look like `file-api-0a1b…`. */
export const FILE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const fileIdSchema = z.string().check(z.regex(FILE_ID_PATTERN, 'must be 1–128 of A-Z a-z 0-9 _ . - (a file ID)'));
const seconds = z.int().check(z.nonnegative());

export const fileObjectSchema = z.looseObject({
	id: fileIdSchema,
	bytes: seconds,
	created_at: seconds,
	filename: z.string().check(z.maxLength(1024)),
	purpose: z.string().check(z.maxLength(64)),
	expires_at: z.nullish(seconds),
});

export type FileObject = z.infer<typeof fileObjectSchema>;

export const fileListSchema = z.looseObject({
	data: z.array(fileObjectSchema),
	has_more: z.optional(z.boolean()),
	last_id: z.nullish(z.string()),
});

export const deletedSchema = z.looseObject({id: fileIdSchema, deleted: z.boolean()});

/** The content part that stands for an uploaded image in a chat message. */
export function fileReferencePart(fileId: string): Record<string, unknown> {
	return {type: 'file', file_id: fileId};
}

export interface UploadForm {
	contentType: string;
	body: Buffer;
}

/** The multipart body of an image upload: `purpose` first (DeepSeek reads it before the file), then the expiry pair, then the file. */
export function uploadForm(file: {bytes: Uint8Array; filename: string; mediaType: string}, expiresAfterSeconds: number | undefined): UploadForm {
	const boundary = `----i-files-${randomBytes(12).toString('hex')}`;
	const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
	let head = field('purpose', IMAGE_PURPOSE);
	if (expiresAfterSeconds !== undefined) head += field('expires_after[anchor]', 'created_at') + field('expires_after[seconds]', String(expiresAfterSeconds));
	// The name is ours (image-<digest>.<ext>): nothing to escape.
	head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.mediaType}\r\n\r\n`;
	const body = Buffer.concat([Buffer.from(head, 'utf8'), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
	return {contentType: `multipart/form-data; boundary=${boundary}`, body};
}

/** `GET /files` for one page, newest first. */
export function listPath(after: string | undefined): string {
	const query = new URLSearchParams({limit: String(LIST_PAGE_LIMIT), order: 'desc'});
	if (after !== undefined) query.set('after', after);
	return `${FILES_PATH}?${query.toString()}`;
}

export function filePath(fileId: string): string {
	return `${FILES_PATH}/${encodeURIComponent(fileId)}`;
}
