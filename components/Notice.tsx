import {Text} from 'ink';

const colors = {info: 'gray', warning: 'yellow', error: 'red'} as const;
const marks = {info: '·', warning: '!', error: '✗'} as const;

export function Notice({level, text}: {level: 'info' | 'warning' | 'error'; text: string}) {
	return (
		<Text color={colors[level]}>
			{marks[level]} {text}
		</Text>
	);
}
