import {Text} from 'ink';
import {colour} from '../source/tui/theme/active-palette.js';

const marks = {info: '·', warning: '!', error: '✗'} as const;

export function Notice({level, text}: {level: 'info' | 'warning' | 'error'; text: string}) {
	return (
		<Text color={colour(level)}>
			{marks[level]} {text}
		</Text>
	);
}
