// The scheduled messages view: what the server will send later, earliest first, each to edit (it
// goes back into compose and leaves the schedule) or to delete.
import { client, store } from './context.ts';
import { compose, composeFocus, errorText, showToast } from './state.ts';
import { ConversationBar, locale, recipientLabel, type Recipient } from './Message.tsx';
import { fullTimestamp } from '../lib/time.ts';
import { filedTopic } from '../store/match.ts';
import type { ScheduledMessage } from '../store/types.ts';

/** Where a scheduled message goes, under the bar its conversation has in the feed. */
function scheduledTo(m: ScheduledMessage): Recipient {
  return m.type === 'stream' ? { type: 'stream', streamId: m.to as number, topic: filedTopic(m.topic ?? '') } : { type: 'private', userIds: m.to as number[] };
}

async function editScheduled(m: ScheduledMessage): Promise<void> {
  try {
    // Taken off the schedule first: it cannot be sent while it is being rewritten.
    await client.deleteScheduled(m.scheduled_message_id);
  } catch (e) {
    return showToast(errorText(e), true);
  }
  const others = m.type === 'private' ? (m.to as number[]).filter((id) => id !== store.me) : [];
  compose.value =
    m.type === 'stream'
      ? { type: 'stream', streamId: m.to as number, topic: m.topic ?? '', content: m.content }
      : { type: 'private', to: others.length ? others : [store.me], content: m.content };
  composeFocus.value = 'message';
}

export function Scheduled() {
  const list = store.scheduled.sorted();
  const twentyFour = store.settings.user.value.twenty_four_hour_time === true;
  return (
    <main class="messages" aria-label="Scheduled messages">
      <div class="narrow-bar">
        <h1>Scheduled messages</h1>
      </div>
      <div class="scroller">
        {list.length === 0 && <p class="empty-list">No scheduled messages. Compose's "Send later" puts one here.</p>}
        {list.map((m) => {
          const to = scheduledTo(m);
          const when = fullTimestamp(m.scheduled_delivery_timestamp, { twentyFourHour: twentyFour, locale: locale() });
          return (
            <article class="draft" key={m.scheduled_message_id} aria-label={`Scheduled message to ${recipientLabel(to)}`}>
              <ConversationBar to={to} />
              <p class="scheduled-when">{m.failed ? `Could not be sent at ${when}` : `Sends ${when}`}</p>
              <p class="draft-text">{m.content}</p>
              <div class="row">
                <button type="button" onClick={() => void editScheduled(m)}>
                  Edit
                </button>
                <button type="button" onClick={() => void client.deleteScheduled(m.scheduled_message_id).catch((e) => showToast(errorText(e), true))}>
                  Delete
                </button>
              </div>
            </article>
          );
        })}
      </div>
    </main>
  );
}
