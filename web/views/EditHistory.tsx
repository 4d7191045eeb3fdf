// The body of the edit history dialog: every version of a message, oldest first, each edit
// with what it removed and added (inline, or the versions side by side) and its moves to
// another topic or stream.
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { client, store } from './context.ts';
import { errorText, showToast } from './state.ts';
import { locale } from './Message.tsx';
import { diffWords, type DiffPart } from '../lib/diff.ts';
import { fullTimestamp } from '../lib/time.ts';
import './edit-history.css';

/** One version as GET /messages/{id}/history lists it. */
interface Version {
  topic: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  user_id: number;
  prev_topic?: string;
  prev_content?: string;
  prev_stream?: number;
  stream?: number;
}

/** Kept while the page lives: whoever prefers columns gets them the next time too. */
const layout = signal<'inline' | 'side'>('inline');

function Parts({ parts, show }: { parts: DiffPart[]; show: 'both' | 'removed' | 'added' }) {
  return (
    <div class="diff">
      {parts.map((p, i) => {
        if (p.op === 'same') return <span key={i}>{p.text}</span>;
        if (show !== 'both' && p.op !== show) return null;
        const Tag = p.op === 'removed' ? 'del' : 'ins';
        return (
          <Tag key={i}>
            <span class="sr-only">{p.op === 'removed' ? '[removed: ' : '[added: '}</span>
            {p.text}
            <span class="sr-only">]</span>
          </Tag>
        );
      })}
    </div>
  );
}

function Change({ v }: { v: Version }) {
  const moves: string[] = [];
  if (v.prev_stream !== undefined) moves.push(`Stream: #${store.streams.name(v.prev_stream)} → #${store.streams.name(v.stream)}`);
  if (v.prev_topic !== undefined) moves.push(`Topic: ${v.prev_topic || 'general chat'} → ${v.topic || 'general chat'}`);
  const parts = v.prev_content === undefined ? null : diffWords(v.prev_content, v.content);
  return (
    <>
      {moves.map((text) => (
        <p key={text} class="history-move">
          {text}
        </p>
      ))}
      {parts &&
        (layout.value === 'inline' ? (
          <Parts parts={parts} show="both" />
        ) : (
          <div class="diff-columns">
            <section aria-label="Before">
              <h4 aria-hidden="true">Before</h4>
              <Parts parts={parts} show="removed" />
            </section>
            <section aria-label="After">
              <h4 aria-hidden="true">After</h4>
              <Parts parts={parts} show="added" />
            </section>
          </div>
        ))}
    </>
  );
}

export function EditHistory({ id }: { id: number }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  useEffect(() => {
    client.history(id).then((v) => setVersions(v as unknown as Version[]), (e) => showToast(errorText(e), true));
  }, [id]);
  if (versions === null) return <p>Loading…</p>;
  const twentyFour = store.settings.user.value.twenty_four_hour_time === true;
  return (
    <div class="edit-history">
      {versions.some((v) => v.prev_content !== undefined) && (
        <div class="segmented" role="group" aria-label="Show changes">
          <button type="button" aria-pressed={layout.value === 'inline'} onClick={() => (layout.value = 'inline')}>
            Inline
          </button>
          <button type="button" aria-pressed={layout.value === 'side'} onClick={() => (layout.value = 'side')}>
            Side by side
          </button>
        </div>
      )}
      <ol class="history">
        {versions.map((v, i) => {
          const what = i === 0 ? 'Original' : v.prev_content === undefined ? 'Moved' : 'Edited';
          return (
            <li key={i}>
              <p class="muted-text">
                {what} by {store.users.name(v.user_id)}, {fullTimestamp(v.timestamp, { twentyFourHour: twentyFour, locale: locale() })}
              </p>
              {i === 0 ? <div class="rendered" dangerouslySetInnerHTML={{ __html: v.rendered_content }} /> : <Change v={v} />}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
