import type {TranscriptItem} from '../source/tui/chat-state.js';
import type {MarkdownRenderer} from '../source/tui/markdown/render-markdown.js';
import {AssistantText} from './AssistantText.js';
import {WholeDetail} from './AskedDetail.js';
import {CustomMessage} from './CustomMessage.js';
import {Notice} from './Notice.js';
import {ThinkingSummary} from './ThinkingSummary.js';
import {ToolCall} from './ToolCall.js';
import {UserMessage} from './UserMessage.js';
import {UserBash} from './UserBash.js';
import {Welcome} from './Welcome.js';

/** One finished transcript item, as it is written once to the scrollback. */
export function TranscriptItemView({item, width, markdown}: {item: TranscriptItem; width: number; markdown: MarkdownRenderer | null}) {
	switch (item.kind) {
		case 'logo': {
			return <Welcome />;
		}

		case 'user': {
			return <UserMessage text={item.text} attachments={item.attachments} />;
		}

		case 'bash': {
			return <UserBash command={item.command} output={item.output} status={item.status} context={item.context} />;
		}

		case 'assistant': {
			return <AssistantText text={item.text} markdown={item.markdown ? markdown : null} width={width} gap={item.gap} />;
		}

		case 'thinking': {
			return <ThinkingSummary lines={item.lines} />;
		}

		case 'tool': {
			return <ToolCall tool={item} />;
		}

		case 'detail': {
			return <WholeDetail asked={item.asked} />;
		}

		case 'notice': {
			return <Notice level={item.level} text={item.text} />;
		}

		case 'custom': {
			return <CustomMessage label={item.label} text={item.text} />;
		}
	}
}
