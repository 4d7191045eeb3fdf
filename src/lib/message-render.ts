// Renders a message's content for storage. Until the Markdown renderer lands this escapes the
// text into paragraphs; callers already consume the renderer's full result shape.
import type { RenderResult } from './markdown/types.ts';
import { renderPlain } from './render.ts';

export function renderMessageContent(content: string): RenderResult {
  const isMe = /^\/me( |$)/.test(content);
  return {
    html: renderPlain(content),
    mentionedUserIds: [],
    mentionedGroupIds: [],
    wildcard: null,
    isMeMessage: isMe,
    links: [],
    uploadPaths: [],
    hasImage: false,
  };
}
