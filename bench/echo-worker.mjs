// The worker bench/pool.ts measures, both resident and spawned per call: it
// answers each NDJSON request with its data, until EOF. Plain JavaScript with
// no imports, so it starts as fast as node itself.
let pending = [];
process.stdin.on('data', chunk => {
	let start = 0;
	for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
		const line = Buffer.concat([...pending, chunk.subarray(start, newline)]);
		pending = [];
		const {id, data} = JSON.parse(line.toString('utf8'));
		process.stdout.write(`${JSON.stringify({id, data})}\n`);
		start = newline + 1;
	}

	if (start < chunk.length) pending.push(chunk.subarray(start));
});
