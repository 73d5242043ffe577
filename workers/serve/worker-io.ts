/** What serve reads requests from: a stream's chunks, paused while one is handled (a Readable is one). */
export interface FrameInput {
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	once(event: 'end', listener: () => void): unknown;
	once(event: 'error', listener: (error: Error) => void): unknown;
	pause(): unknown;
	resume(): unknown;
	destroy(): unknown;
}

/** Where serve writes answers: one frame at a time, the callback once it is written (a Writable is one). */
export interface FrameOutput {
	write(frame: Buffer, done: (error?: Error | null) => void): unknown;
}
