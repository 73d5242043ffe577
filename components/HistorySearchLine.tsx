import {Text} from 'ink';
import {type HistorySearch, searchLabel, shownQuery} from '../source/tui/editor/history-search.js';
import {colour} from '../source/tui/theme/active-palette.js';

/** The Ctrl-R search's line under the editor: what is searched, whether anything older holds it, and the keys. */
export function HistorySearchLine({search}: {search: HistorySearch}) {
	return (
		<Text wrap="truncate-end">
			<Text bold color={colour(search.failing ? 'warning' : 'accent')}>
				{searchLabel(search)}
			</Text>
			{shownQuery(search)}
			<Text dimColor>{'  Ctrl-R older · Enter take · Esc cancel'}</Text>
		</Text>
	);
}
