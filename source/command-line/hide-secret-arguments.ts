/** What stands for a secret flag's value in the process's own command line. */
export const HIDDEN_VALUE = '***';

/** The flags whose values are secrets: `--api-key KEY` and `--api-key=KEY`. */
const secretFlags = ['--api-key'];

/**
 * Takes the values of secret flags out of the process's command line once
 * `i` has its own copy: out of `process.argv` (extension code can read it)
 * and, on Linux, out of /proc/PID/cmdline and `ps`, by rewriting the
 * process title (libuv writes it over the original argument memory). A
 * command the shell tool runs (`cat /proc/$PPID/cmdline`) then cannot read
 * the key into the session. Other users can still see it in the moment
 * before this runs, which is why docs/providers.md points to `i auth login`. A
 * command line without a secret flag is left exactly as it is (`pgrep -f`
 * keeps matching it). Words after `--` are looked at too: for `i dev … --`
 * they are flags, and hiding a word of a prompt only changes what `ps` shows.
 */
export function hideSecretArguments(argv: readonly string[]): void {
	const hidden = [...process.argv];
	const offset = process.argv.length - argv.length;
	let changed = false;
	for (let index = 0; index < argv.length; index++) {
		const word = argv[index]!;
		const flag = secretFlags.find(name => word === name || word.startsWith(`${name}=`));
		if (flag === undefined) continue;
		if (word === flag) {
			if (index + 1 >= argv.length) continue;
			hidden[offset + index + 1] = HIDDEN_VALUE;
			index++;
		} else {
			hidden[offset + index] = `${flag}=${HIDDEN_VALUE}`;
		}

		changed = true;
	}

	if (!changed) return;
	for (const [index, word] of hidden.entries()) process.argv[index] = word;
	// The title takes the original argv[0] (argv0), so it fits in the memory the arguments had; what does not fit is cut at the end.
	if (process.platform === 'linux') process.title = [process.argv0, ...hidden.slice(1)].join(' ');
}
