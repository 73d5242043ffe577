import {Text} from 'ink';
import {type HistorySearch, searchLabel, shownQuery} from '../source/tui/editor/history-search.js';

/** The Ctrl-R search's line under the editor: what is searched, whether anything older holds it, and the keys. */
export function HistorySearchLine({search}: {search: HistorySearch}) {
	return (
		<Text wrap="truncate-end">
			<Text bold color={search.failing ? 'yellow' : 'cyan'}>
				{searchLabel(search)}
			</Text>
			{shownQuery(search)}
			<Text dimColor>{'  Ctrl-R older · Enter take · Esc cancel'}</Text>
		</Text>
	);
}
