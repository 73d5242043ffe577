import assert from 'node:assert/strict';
import {test} from 'node:test';
import {MAX_IMAGES_PER_BATCH, MAX_IMAGE_BYTES, checkImageParts, sniffImageType} from '../../source/core/tools/images.js';
import {ToolRunError} from '../../source/core/tools/types.js';
import {signatures} from './helpers.js';

function part(url: string) {
	return {type: 'image_url', image_url: {url}};
}

function dataUrl(type: string, bytes: Buffer): string {
	return `data:${type};base64,${bytes.toString('base64')}`;
}

function refused(images: unknown, message: RegExp): void {
	assert.throws(
		() => checkImageParts(images),
		(error: unknown) => {
			assert.ok(error instanceof ToolRunError);
			assert.match(error.message, message);
			return true;
		},
	);
}

test('sniffImageType reads the signature of each supported type and nothing else', () => {
	for (const [type, bytes] of Object.entries(signatures)) {
		assert.equal(sniffImageType(bytes), type);
	}

	assert.equal(sniffImageType(Buffer.from('GIF87a', 'latin1')), 'image/gif');
	assert.equal(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVE')), null);
	assert.equal(sniffImageType(Buffer.from('<svg></svg>')), null);
	assert.equal(sniffImageType(Buffer.alloc(0)), null);
});

test('checkImageParts accepts up to 8 valid data URLs and returns clean copies', () => {
	const images = Object.entries(signatures).flatMap(([type, bytes]) => [part(dataUrl(type, bytes)), part(dataUrl(type, bytes))]);
	assert.equal(images.length, MAX_IMAGES_PER_BATCH);
	const checked = checkImageParts(images.map(image => ({...image, extra: 'dropped'})));
	assert.deepEqual(checked, images);
	assert.deepEqual(checkImageParts([]), []);
});

test('checkImageParts refuses 9 images, wrong shapes and non-data URLs', () => {
	const png = part(dataUrl('image/png', signatures['image/png']));
	refused(
		Array.from({length: 9}, () => png),
		/^images must list at most 8 items \(got 9\)$/,
	);
	refused('nope', /^images must be an array/);
	refused([png, {type: 'image', image_url: {url: 'x'}}], /^images\[1\]\.type must be "image_url"$/);
	refused([{type: 'image_url'}], /^images\[0\]\.image_url is required$/);
	refused([part('https://example.com/cat.png')], /^images\[0\]: the url must be a base64 data URL/);
	refused([part('data:image/png,rawdata')], /^images\[0\]: the url must be a base64 data URL/);
});

test('checkImageParts refuses bad base64, non-images and mismatched media types', () => {
	refused([part('data:image/png;base64,@@@@')], /^images\[0\]: the data is not valid base64$/);
	refused([part('data:image/png;base64,abc')], /^images\[0\]: the data is not valid base64$/);
	refused([part(dataUrl('image/png', Buffer.from('plain text')))], /^images\[0\]: the data is not a PNG, JPEG, GIF or WebP image$/);
	refused([part(dataUrl('image/jpeg', signatures['image/png']))], /^images\[0\]: declared as image\/jpeg but the data is image\/png$/);
	refused([part(dataUrl('image/svg+xml', signatures['image/png']))], /declared as image\/svg\+xml/);
});

test('checkImageParts accepts exactly 8 MiB and refuses one byte more', () => {
	const exact = Buffer.alloc(MAX_IMAGE_BYTES);
	signatures['image/png'].copy(exact);
	assert.equal(checkImageParts([part(dataUrl('image/png', exact))]).length, 1);
	const over = Buffer.alloc(MAX_IMAGE_BYTES + 1);
	signatures['image/png'].copy(over);
	refused([part(dataUrl('image/png', over))], /^images\[0\]: the image is 8 MiB \(8388609 bytes\), over the 8 MiB limit$/);
});
