import {open, stat} from 'node:fs/promises';
import * as z from 'zod/mini';
import type {ImagePart} from '../messages.js';
import {parseArguments} from './arguments.js';
import {describeFileError} from './file-content.js';
import {formatBytes, plural} from './format.js';
import {MAX_IMAGES_PER_BATCH, MAX_IMAGE_BYTES, sniffImageType, toDataUrl} from './images.js';
import {toParameters} from './parameters.js';
import {outsideWorkspaceAsk, pathArgument, resolvePath, type ResolvedPath} from './paths.js';
import type {Tool, ToolResult} from './types.js';

const schema = z.strictObject({
	paths: z
		.array(pathArgument('Image file path, relative to the workspace or absolute'))
		.check(z.minLength(1), z.maxLength(MAX_IMAGES_PER_BATCH), z.describe(`Image files to look at (1–${MAX_IMAGES_PER_BATCH}): PNG, JPEG, GIF or WebP, at most 8 MiB each`)),
});

export function createViewImageTool(): Tool {
	return {
		name: 'view_image',
		readOnly: true,
		description: `Attach up to ${MAX_IMAGES_PER_BATCH} image files (PNG, JPEG, GIF or WebP, at most 8 MiB each) so you can see them. The type is read from the file's content, not its name.`,
		parameters: toParameters(schema),
		async plan(args, context) {
			const {paths} = parseArguments('view_image', schema, args);
			const targets = await Promise.all(paths.map(async file => resolvePath(context.workspace, file)));
			return {
				ask: outsideWorkspaceAsk('View image', targets),
				run: async () => viewImages(targets),
			};
		},
	};
}

type Loaded = {ok: true; line: string; image: ImagePart} | {ok: false; line: string};

async function viewImages(targets: readonly ResolvedPath[]): Promise<ToolResult> {
	const loaded = await Promise.all(targets.map(async target => loadImage(target)));
	const images = loaded.flatMap(item => (item.ok ? [item.image] : []));
	const header = images.length === 0 ? 'No image attached' : `Attached ${plural(images.length, 'image')}:`;
	return {
		output: [header, ...loaded.map(item => item.line)].join('\n'),
		...(images.length > 0 ? {images} : {}),
		isError: images.length === 0,
		display: header.replace(/:$/, ''),
	};
}

async function loadImage(target: ResolvedPath): Promise<Loaded> {
	const fail = (message: string): Loaded => ({ok: false, line: `- Error: ${message}`});
	let bytes;
	try {
		// Stat before opening: opening a FIFO would block until a writer appears.
		const stats = await stat(target.absolute);
		if (!stats.isFile()) {
			return fail(`${target.display} is ${stats.isDirectory() ? 'a folder' : 'not a regular file'}`);
		}

		bytes = await readHead(target.absolute, Math.min(MAX_IMAGE_BYTES + 1, stats.size + 1));
	} catch (error) {
		return fail(describeFileError(error, target.display));
	}

	if (bytes.length > MAX_IMAGE_BYTES) {
		return fail(`${target.display} is over the ${formatBytes(MAX_IMAGE_BYTES)} image limit`);
	}

	const type = sniffImageType(bytes);
	if (!type) {
		return fail(`${target.display} is not a PNG, JPEG, GIF or WebP image (judged by its content)`);
	}

	return {
		ok: true,
		line: `- ${target.display} (${type}, ${plural(bytes.length, 'byte')})`,
		image: {type: 'image_url', image_url: {url: toDataUrl(type, bytes)}},
	};
}

/** At most `maxBytes` from the start of a file; one byte past the limit is enough to tell an over-size file. */
async function readHead(file: string, maxBytes: number): Promise<Buffer> {
	const handle = await open(file, 'r');
	try {
		const buffer = Buffer.alloc(maxBytes);
		let filled = 0;
		while (filled < buffer.length) {
			const {bytesRead} = await handle.read(buffer, filled, buffer.length - filled, filled);
			if (bytesRead === 0) {
				break;
			}

			filled += bytesRead;
		}

		return buffer.subarray(0, filled);
	} finally {
		await handle.close();
	}
}
