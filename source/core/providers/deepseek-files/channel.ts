/**
 * The DeepSeek Files channel (spec/platform.md §4): in `"images": "files"` mode each
 * image of a request (a person's, or one a tool returned) is uploaded once,
 * recorded in the workspace's registry by the SHA-256 of its bytes and its
 * account scope, and referred to by file ID from then on, in this request
 * and every later one that carries it. An image goes inline (as in the
 * default mode) when it cannot be referred to: its file expired and
 * `auto_refresh` is off, the registry is full, or its upload failed (said
 * in a warning; the upload is not retried blindly, files-http.ts).
 */
import {createHash} from 'node:crypto';
import type {Message} from '../../messages.js';
import type {ProviderFileConfig} from '../../config/provider-file.js';
import {ProviderError} from '../errors.js';
import type {RetryOptions} from '../retry.js';
import type {FileReferences} from '../types.js';
import {filesRequest} from './files-http.js';
import {type FileRegistry, RegistryFullError, isExpired, type RegistryEntry} from './registry.js';
import {FILES_PATH, IMAGE_PURPOSE, MAX_IMAGE_UPLOAD_BYTES, fileObjectSchema, uploadForm, type FileObject} from './wire.js';

/** The image data URLs a checked tool result or user message may hold (spec/platform.md §5: PNG, JPEG, GIF, WebP, base64). */
const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

const EXTENSIONS: Record<string, string> = {'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp'};

export interface FilesChannelOptions {
	/** The API config's base URL (or DeepSeek's default): the files live at `<base>/files`. */
	baseUrl: string;
	/** The authorization header; kept apart from everything that is logged or stored. */
	headers: Record<string, string>;
	config: ProviderFileConfig;
	accountScope: string;
	/** The workspace's registry, found at the first upload (the workspace registers then if it had not). */
	registry: () => Promise<FileRegistry>;
	retry?: RetryOptions;
	warn: (message: string) => void;
	/** The clock, for expiry; tests move it. */
	now?: () => number;
}

export class DeepSeekFilesChannel {
	readonly #options: FilesChannelOptions;
	/** The workspace's registry, found once (a failure is tried again at the next request). */
	#registry: Promise<FileRegistry> | undefined;
	/** Each image's digest by its data URL: the history carries the same images into every request. */
	readonly #digests = new Map<string, string>();

	constructor(options: FilesChannelOptions) {
		this.#options = options;
	}

	/** Uploads what is not uploaded yet and returns the references of the images that can go by ID. */
	async reference(messages: readonly Message[], signal: AbortSignal | undefined): Promise<FileReferences> {
		const images = imagesOf(messages);
		// Image data URL → the file ID that stands for it in this request.
		const references = new Map<string, string>();
		if (images.length === 0) return references;
		this.#registry ??= this.#options.registry().catch((error: unknown) => {
			this.#registry = undefined;
			throw error;
		});
		const registry = await this.#registry;
		const known = await registry.entries();
		const now = this.#now();
		// By digest: the same image twice in one history is one file.
		const done = new Map<string, string | null>();
		for (const url of images) {
			if (references.has(url)) continue;
			const match = DATA_URL.exec(url);
			if (!match) continue;
			const [, mediaType, data] = match as unknown as [string, string, string];
			const hash = this.#digest(url, data);
			if (!done.has(hash)) done.set(hash, await this.#fileFor({hash, bytes: Buffer.from(data, 'base64'), mediaType, known, registry, now, signal}));
			const id = done.get(hash);
			if (id) references.set(url, id);
		}

		return references;
	}

	#digest(url: string, data: string): string {
		let hash = this.#digests.get(url);
		if (hash === undefined) {
			hash = `sha256:${createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex')}`;
			this.#digests.set(url, hash);
		}

		return hash;
	}

	async #fileFor(image: {hash: string; bytes: Buffer; mediaType: string; known: RegistryEntry[]; registry: FileRegistry; now: number; signal: AbortSignal | undefined}): Promise<string | null> {
		const {config, accountScope} = this.#options;
		const entry = image.known.findLast(file => file.hash === image.hash && file.account_scope === accountScope);
		if (entry && !isExpired(entry, image.now)) return entry.id;
		// An expired file is uploaded again only with its own authorisation; otherwise the image goes inline.
		if (entry && !config.auto_refresh) return null;
		if (image.bytes.byteLength > MAX_IMAGE_UPLOAD_BYTES) return null;
		const name = `image-${image.hash.slice('sha256:'.length, 'sha256:'.length + 16)}.${EXTENSIONS[image.mediaType] ?? 'bin'}`;
		let uploaded: FileObject;
		try {
			uploaded = await this.#upload(name, image.bytes, image.mediaType, image.signal);
		} catch (error) {
			if (error instanceof ProviderError && error.kind === 'aborted') throw error;
			const maybeStored = error instanceof ProviderError && (error.kind === 'network' || (error.status ?? 0) >= 500);
			this.#options.warn(
				`${(error as Error).message}; the image goes inline instead` + (maybeStored ? " (the file may have been stored all the same: i --provider-action list --remote shows the account's files)" : ''),
			);
			return null;
		}

		const created = new Date(uploaded.created_at * 1000);
		const expiresAt = uploaded.expires_at ?? (config.expires_after_seconds === undefined ? null : uploaded.created_at + config.expires_after_seconds);
		try {
			await image.registry.add(
				{
					id: uploaded.id,
					hash: image.hash,
					name,
					size: image.bytes.byteLength,
					purpose: IMAGE_PURPOSE,
					account_scope: accountScope,
					created: created.toISOString(),
					expires: expiresAt === null ? null : new Date(expiresAt * 1000).toISOString(),
				},
				{prune: config.auto_prune, now: image.now},
			);
		} catch (error) {
			if (!(error instanceof RegistryFullError)) throw error;
			// Uploaded but not remembered: used for this request, and said, so the person can make room.
			this.#options.warn(`${error.message}; ${uploaded.id} was uploaded but is not recorded`);
		}

		return uploaded.id;
	}

	async #upload(name: string, bytes: Buffer, mediaType: string, signal: AbortSignal | undefined): Promise<FileObject> {
		const form = uploadForm({bytes, filename: name, mediaType}, this.#options.config.expires_after_seconds);
		return filesRequest(
			{
				method: 'POST',
				url: endpoint(this.#options.baseUrl, FILES_PATH),
				headers: this.#options.headers,
				body: {contentType: form.contentType, bytes: form.body},
				retry: 'upload',
				what: `deepseek files: upload of ${name}`,
				signal,
				...(this.#options.retry ? {options: this.#options.retry} : {}),
			},
			fileObjectSchema,
		);
	}

	#now(): number {
		return (this.#options.now ?? Date.now)();
	}
}

/** Every image data URL of the requests' user messages (a person's and a tool's), in order. */
function imagesOf(messages: readonly Message[]): string[] {
	const urls: string[] = [];
	for (const message of messages) {
		if (message.role !== 'user' || typeof message.content === 'string') continue;
		for (const part of message.content) if (part.type === 'image_url') urls.push(part.image_url.url);
	}

	return urls;
}

/** `base_url` with one trailing slash dropped, plus the path: the adapter's own rule. */
export function endpoint(baseUrl: string, path: string): string {
	return (baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl) + path;
}
