// The chat screen benchmark's baseline: bare node that, like the chat
// screen, shows a prompt, waits for a line on the terminal, asks the same
// endpoint and prints the text of each chunk it reads as it arrives, then
// waits, idle, until it is killed. Nothing else (the terminal turns each
// newline into CR LF). Usage: node print-stream.mjs BASE_URL
import {request} from 'node:http';

const url = new URL(`${process.argv[2]}/chat/completions`);
const body = JSON.stringify({model: 'bench', stream: true, messages: [{role: 'user', content: 'go'}]});

function ask() {
	const req = request(url, {method: 'POST', headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)}}, response => {
		let buffered = '';
		response.setEncoding('utf8');
		response.on('data', data => {
			buffered += data;
			let text = '';
			for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
				const line = buffered.slice(0, end);
				buffered = buffered.slice(end + 2);
				if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
				const content = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
				if (content) text += content;
			}

			if (text !== '') process.stdout.write(text);
		});
		response.on('end', () => process.stdout.write('\n> '));
	});
	req.end(body);
}

process.stdout.write('> ');
process.stdin.once('data', ask);
