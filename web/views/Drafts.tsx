// The drafts view: unsent messages kept on the server, to restore or delete.
import { client, store } from './context.ts';
import { compose, composeFocus } from './state.ts';

export function Drafts() {
  const drafts = [...store.drafts.byId.value.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <main class="messages" aria-label="Drafts">
      <div class="narrow-bar">
        <h1>Drafts</h1>
      </div>
      <div class="scroller">
        {drafts.length === 0 && <p class="empty-list">No drafts.</p>}
        {drafts.map((d) => {
          const to = d.type === 'stream' ? `#${store.streams.name(d.to[0])} › ${d.topic || 'general chat'}` : d.to.map((id) => store.users.name(id)).join(', ');
          return (
            <article class="draft" key={d.id} aria-label={`Draft to ${to}`}>
              <div class="recipient-bar">{to}</div>
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
                <button type="button" onClick={() => void client.deleteDraft(d.id)}>
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
