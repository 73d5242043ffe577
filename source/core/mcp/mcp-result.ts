import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import type {ImagePart} from '../messages.js';
import {formatBytes} from '../tools/format.js';
import type {ToolResult} from '../tools/types.js';

/** The media types an image part may carry to the model (images.ts checks each again after after_tool). */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * A server's tool result as the core's: text parts joined, images as image
 * parts (checked by the core after after_tool, spec/platform.md §5: size, type,
 * count), embedded resources as their text or a line naming them, links
 * and audio as a line, and `structuredContent` as JSON when there is no
 * content. `isError` is a tool error the model sees.
 */
export function mapToolResult(result: CallToolResult): ToolResult {
	const texts: string[] = [];
	const images: ImagePart[] = [];
	for (const part of result.content ?? []) {
		switch (part.type) {
			case 'text': {
				texts.push(part.text);
				break;
			}

			case 'image': {
				if (imageTypes.has(part.mimeType)) images.push({type: 'image_url', image_url: {url: `data:${part.mimeType};base64,${part.data}`}});
				else texts.push(`[image of type ${part.mimeType}, ${describeBase64(part.data)}: a type the model is not sent]`);
				break;
			}

			case 'audio': {
				texts.push(`[audio of type ${part.mimeType}, ${describeBase64(part.data)}: not sent to the model]`);
				break;
			}

			case 'resource': {
				const {resource} = part;
				if ('text' in resource && typeof resource.text === 'string') texts.push(`Resource ${resource.uri}:\n${resource.text}`);
				else if ('blob' in resource && typeof resource.blob === 'string' && resource.mimeType !== undefined && imageTypes.has(resource.mimeType)) {
					images.push({type: 'image_url', image_url: {url: `data:${resource.mimeType};base64,${resource.blob}`}});
					texts.push(`Resource ${resource.uri}: an image (${resource.mimeType})`);
				} else texts.push(`Resource ${resource.uri}: ${resource.mimeType ?? 'binary data'}, ${'blob' in resource && typeof resource.blob === 'string' ? describeBase64(resource.blob) : 'no content'}`);
				break;
			}

			case 'resource_link': {
				texts.push(`Resource link ${part.uri}${part.name ? ` (${part.name})` : ''}${part.description ? `: ${part.description}` : ''}`);
				break;
			}

			default: {
				texts.push(`[a part of type ${JSON.stringify((part as {type: unknown}).type)} this client does not read]`);
			}
		}
	}

	if (texts.length === 0 && images.length === 0 && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent, null, 2));
	const output = texts.join('\n');
	return {
		output: result.isError === true ? `Error: ${output || 'the server reported an error without a message'}` : output,
		...(images.length > 0 ? {images} : {}),
		...(result.isError === true ? {isError: true} : {}),
	};
}

function describeBase64(data: string): string {
	return formatBytes(Math.floor((data.length * 3) / 4));
}
