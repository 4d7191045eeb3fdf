// The drafts view: unsent messages kept on the server, to restore or delete, each under the bar
// its conversation has in the feed.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { client, store } from './context.ts';
import { compose, composeFocus } from './state.ts';
import { ConversationBar, locale, recipientLabel, type Recipient } from './Message.tsx';
import { fullTimestamp } from '../lib/time.ts';
import { filedTopic } from '../store/match.ts';
import type { Draft } from '../store/types.ts';

function draftTo(d: Draft): Recipient {
  return d.type === 'stream' ? { type: 'stream', streamId: d.to[0]!, topic: filedTopic(d.topic) } : { type: 'private', userIds: d.to };
}

export function Drafts() {
  const drafts = [...store.drafts.byId.value.values()].sort((a, b) => b.timestamp - a.timestamp);
  const twentyFour = store.settings.user.value.twenty_four_hour_time === true;
  const root = useRef<HTMLElement>(null);
  /** The place of a draft being deleted: once it is gone the focus goes to the next one's Delete (it was left on nothing). */
  const deleting = useRef<{ id: number; at: number } | null>(null);
  useLayoutEffect(() => {
    const d = deleting.current;
    if (!d || store.drafts.byId.value.has(d.id)) return;
    deleting.current = null;
    const buttons = root.current?.querySelectorAll<HTMLButtonElement>('.draft .delete-draft') ?? [];
    (buttons[Math.min(d.at, buttons.length - 1)] ?? root.current?.querySelector<HTMLElement>('h1'))?.focus();
  });
  return (
    <main class="messages" aria-label="Drafts" ref={root}>
      <div class="narrow-bar">
        <h1 tabIndex={-1}>Drafts</h1>
      </div>
      <div class="scroller">
        {drafts.length === 0 && <p class="empty-list">No drafts.</p>}
        {drafts.map((d, i) => {
          const to = draftTo(d);
          return (
            <article class="draft" key={d.id} aria-label={`Draft to ${recipientLabel(to)}`}>
              <ConversationBar to={to} />
              <p class="scheduled-when">Saved {fullTimestamp(d.timestamp, { twentyFourHour: twentyFour, locale: locale() })}</p>
              <p class="draft-text">{d.content}</p>
              <div class="row">
                <button
                  type="button"
                  onClick={() => {
                    compose.value = d.type === 'stream' ? { type: 'stream', streamId: d.to[0] ?? null, topic: d.topic, content: d.content, draftId: d.id } : { type: 'private', to: d.to, content: d.content, draftId: d.id };
                    composeFocus.value = 'message';
                  }}
                >
                  Restore draft
                </button>
                <button
                  type="button"
                  class="delete-draft"
                  onClick={() => {
                    deleting.current = { id: d.id, at: i };
                    void client.deleteDraft(d.id);
                  }}
                >
                  Delete draft
                </button>
              </div>
            </article>
          );
        })}
      </div>
    </main>
  );
}
