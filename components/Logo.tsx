import {Box, Text} from 'ink';
import {colours} from '../brand/glyph.js';
import {halfBlockRows} from '../brand/half-blocks.js';

/**
 * The mark at the top of the chat screen, drawn from the shared glyph. Ink
 * colours through chalk, which honours FORCE_COLOR and non-terminals but not
 * NO_COLOR, so NO_COLOR is checked here and then no colour is asked for at all.
 */
export function Logo() {
	const colour = !process.env.NO_COLOR;
	return (
		<Box flexDirection="column">
			{halfBlockRows().map((runs, row) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the glyph is fixed, so a row's index is a stable key.
				<Text key={row}>
					{runs.map((run, index) =>
						colour && run.fg !== null ? (
							// biome-ignore lint/suspicious/noArrayIndexKey: the glyph is fixed, so a run's index in its row is a stable key.
							<Text key={index} color={colours[run.fg]} backgroundColor={run.bg === null ? undefined : colours[run.bg]}>
								{run.text}
							</Text>
						) : (
							run.text
						),
					)}
				</Text>
			))}
		</Box>
	);
}
