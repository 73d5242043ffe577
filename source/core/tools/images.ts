import * as z from 'zod/mini';
import type {ImagePart} from '../messages.js';
import {describeIssues} from './arguments.js';
import {formatBytes} from './format.js';
import {ToolRunError} from './types.js';

/** spec/platform.md §5: every image, native or from an external tool, is at most 8 MiB … */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** … and a result carries at most 8 of them. */
export const MAX_IMAGES_PER_BATCH = 8;

export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The image type from the file's first bytes; extensions and declared types are never trusted. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | null {
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
		return 'image/png';
	}

	if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
		return 'image/jpeg';
	}

	if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
		return 'image/gif';
	}

	if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes.subarray(8), ascii('WEBP'))) {
		return 'image/webp';
	}

	return null;
}

export function toDataUrl(mediaType: ImageMediaType, bytes: Uint8Array): string {
	return `data:${mediaType};base64,${Buffer.from(bytes).toString('base64')}`;
}

const imagePartsSchema = z
	.array(
		z.object({
			type: z.literal('image_url'),
			image_url: z.object({url: z.string()}),
		}),
	)
	.check(z.maxLength(MAX_IMAGES_PER_BATCH));

const dataUrlPattern = /^data:([^;,]+);base64,([\s\S]*)$/;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;
// Base64 text above this length decodes to more than MAX_IMAGE_BYTES; checked before decoding anything.
const maxBase64Length = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/**
 * Check images a tool returned: an array of at most 8 `image_url` parts, each
 * a base64 `data:` URL of at most 8 MiB whose bytes are PNG, JPEG, GIF or
 * WebP and agree with the declared media type. Returns clean copies; throws
 * `ToolRunError` naming the image and the rule it broke.
 */
export function checkImageParts(images: unknown): ImagePart[] {
	const parsed = imagePartsSchema.safeParse(images);
	if (!parsed.success) {
		throw new ToolRunError(describeIssues(parsed.error.issues, images, 'images'));
	}

	return parsed.data.map((part, index) => ({type: 'image_url', image_url: {url: checkDataUrl(part.image_url.url, index)}}));
}

function checkDataUrl(url: string, index: number): string {
	const name = `images[${index}]`;
	const match = dataUrlPattern.exec(url);
	if (!match) {
		throw new ToolRunError(`${name}: the url must be a base64 data URL (data:image/png;base64,…); links and other URLs are not accepted`);
	}

	const declared = match[1]!.toLowerCase();
	const payload = match[2]!;
	if (payload.length > maxBase64Length) {
		throw new ToolRunError(`${name}: the image is over ${formatBytes(MAX_IMAGE_BYTES)}`);
	}

	if (payload.length % 4 !== 0 || !base64Pattern.test(payload)) {
		throw new ToolRunError(`${name}: the data is not valid base64`);
	}

	const bytes = Buffer.from(payload, 'base64');
	if (bytes.length > MAX_IMAGE_BYTES) {
		throw new ToolRunError(`${name}: the image is ${formatBytes(bytes.length)} (${bytes.length} bytes), over the ${formatBytes(MAX_IMAGE_BYTES)} limit`);
	}

	const actual = sniffImageType(bytes);
	if (!actual) {
		throw new ToolRunError(`${name}: the data is not a PNG, JPEG, GIF or WebP image`);
	}

	if (actual !== declared) {
		throw new ToolRunError(`${name}: declared as ${declared} but the data is ${actual}`);
	}

	return url;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
	return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(text: string): number[] {
	return [...text].map(character => character.charCodeAt(0));
}
