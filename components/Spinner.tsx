import {useEffect, useState} from 'react';
import {Text} from 'ink';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Mounted only while a turn runs: an idle screen has no timer at all. */
export function Spinner({label}: {label: string}) {
	const [frame, setFrame] = useState(0);
	useEffect(() => {
		const timer = setInterval(() => setFrame(current => (current + 1) % frames.length), 100);
		return () => clearInterval(timer);
	}, []);
	return (
		<Text color="cyan">
			{frames[frame]} <Text dimColor>{label}</Text>
		</Text>
	);
}
