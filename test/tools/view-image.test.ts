import assert from 'node:assert/strict';
import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {test} from 'node:test';
import {MAX_IMAGE_BYTES} from '../../source/core/tools/images.js';
import {ToolInputError} from '../../source/core/tools/types.js';
import {createViewImageTool} from '../../source/core/tools/view-image.js';
import {run, signatures, tempDir, toolContext} from './helpers.js';

const viewImage = createViewImageTool();

test('view_image attaches each supported type as a base64 data URL, judged by content', async t => {
	const dir = await tempDir(t);
	// Names deliberately disagree with content: the signature decides.
	const names = {'image/png': 'a.jpg', 'image/jpeg': 'b.png', 'image/gif': 'c.bin', 'image/webp': 'd'} as const;
	for (const [type, name] of Object.entries(names)) {
		await writeFile(join(dir, name), signatures[type as keyof typeof signatures]);
	}

	const result = await run(viewImage, {paths: Object.values(names)}, toolContext(dir));
	assert.equal(result.ask, null);
	assert.notEqual(result.isError, true);
	assert.equal(result.output, ['Attached 4 images:', '- a.jpg (image/png, 12 bytes)', '- b.png (image/jpeg, 6 bytes)', '- c.bin (image/gif, 10 bytes)', '- d (image/webp, 16 bytes)'].join('\n'));
	assert.deepEqual(
		result.images,
		Object.keys(names).map(type => ({
			type: 'image_url',
			image_url: {url: `data:${type};base64,${signatures[type as keyof typeof signatures].toString('base64')}`},
		})),
	);
});

test('a file with a .png name but no image signature is refused', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'fake.png'), 'not an image at all');
	const result = await run(viewImage, {paths: ['fake.png']}, toolContext(dir));
	assert.equal(result.isError, true);
	assert.equal(result.images, undefined);
	assert.equal(result.output, 'No image attached\n- Error: fake.png is not a PNG, JPEG, GIF or WebP image (judged by its content)');
});

test('exactly 8 MiB is attached and one byte more is refused, without failing the others', async t => {
	const dir = await tempDir(t);
	const exact = Buffer.alloc(MAX_IMAGE_BYTES);
	signatures['image/png'].copy(exact);
	await writeFile(join(dir, 'exact.png'), exact);
	await writeFile(join(dir, 'over.png'), Buffer.concat([exact, Buffer.from([0])]));
	const result = await run(viewImage, {paths: ['exact.png', 'over.png', 'missing.png']}, toolContext(dir));
	assert.notEqual(result.isError, true);
	assert.equal((result.images as unknown[]).length, 1);
	assert.equal(result.output, ['Attached 1 image:', '- exact.png (image/png, 8388608 bytes)', '- Error: over.png is over the 8 MiB image limit', '- Error: missing.png does not exist'].join('\n'));
});

test('8 images are fine and 9 are refused', async t => {
	const dir = await tempDir(t);
	await writeFile(join(dir, 'p.png'), signatures['image/png']);
	const eight = await run(viewImage, {paths: Array.from({length: 8}, () => 'p.png')}, toolContext(dir));
	assert.equal((eight.images as unknown[]).length, 8);
	await assert.rejects(viewImage.plan({paths: Array.from({length: 9}, () => 'p.png')}, toolContext(dir)), (error: unknown) => {
		assert.ok(error instanceof ToolInputError);
		assert.equal(error.message, 'view_image: paths must list at most 8 items (got 9)');
		return true;
	});
});

test('view_image asks outside the workspace', async t => {
	const dir = await tempDir(t);
	const outside = await tempDir(t);
	await writeFile(join(outside, 'o.png'), signatures['image/png']);
	const planned = await viewImage.plan({paths: [join(outside, 'o.png')]}, toolContext(dir));
	assert.equal(planned.ask?.title, `View image outside the workspace: ${join(outside, 'o.png')}`);
});
