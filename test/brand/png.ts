import {inflateSync} from 'node:zlib';

export const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Png {
	width: number;
	height: number;
	/** Red, green, blue (and alpha, 255 for RGB images) of one pixel. */
	pixel(x: number, y: number): [number, number, number, number];
}

function paeth(left: number, up: number, upLeft: number): number {
	const estimate = left + up - upLeft;
	const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
	return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

/** Decodes what a browser screenshot is: 8-bit RGB or RGBA, not interlaced. Anything else throws rather than guessing. */
export function decodePng(data: Buffer): Png {
	if (!data.subarray(0, 8).equals(pngSignature)) throw new Error('not a PNG: bad signature');
	const idat: Buffer[] = [];
	let header: Buffer | undefined;
	for (let offset = 8; offset + 8 <= data.length; ) {
		const length = data.readUInt32BE(offset);
		const type = data.toString('latin1', offset + 4, offset + 8);
		const body = data.subarray(offset + 8, offset + 8 + length);
		if (type === 'IHDR') header = body;
		if (type === 'IDAT') idat.push(body);
		offset += 12 + length;
	}

	if (!header) throw new Error('PNG has no IHDR');
	const width = header.readUInt32BE(0);
	const height = header.readUInt32BE(4);
	const [bitDepth, colourType, , , interlace] = header.subarray(8, 13);
	if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0) {
		throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`);
	}

	const channels = colourType === 6 ? 4 : 3;
	const stride = width * channels;
	const raw = inflateSync(Buffer.concat(idat));
	if (raw.length !== height * (stride + 1)) throw new Error(`PNG data is ${raw.length} bytes, expected ${height * (stride + 1)}`);
	const pixels = Buffer.alloc(height * stride);
	for (let y = 0; y < height; y++) {
		const filter = raw[y * (stride + 1)]!;
		for (let i = 0; i < stride; i++) {
			const value = raw[y * (stride + 1) + 1 + i]!;
			const left = i >= channels ? pixels[y * stride + i - channels]! : 0;
			const up = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
			const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels]! : 0;
			const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
			if (predictor === undefined) throw new Error(`unknown PNG filter ${filter} in row ${y}`);
			pixels[y * stride + i] = (value + predictor) & 0xff;
		}
	}

	return {
		width,
		height,
		pixel(x, y) {
			const at = y * stride + x * channels;
			return [pixels[at]!, pixels[at + 1]!, pixels[at + 2]!, channels === 4 ? pixels[at + 3]! : 255];
		},
	};
}
