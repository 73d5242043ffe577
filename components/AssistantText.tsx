import {Text} from 'ink';

/** Streamed answer text, a block of whole lines at a time. */
export function AssistantText({text}: {text: string}) {
	return <Text>{text}</Text>;
}
