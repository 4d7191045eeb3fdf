// Recent conversations: topics and direct-message conversations by their last message, with
// unread counts, participants and times; filters for unread, taking part, muted and kind, and a
// text filter. Rows come from the messages the client has loaded; opening the view fetches the
// newest page, "Load more" pages further back through GET /messages.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { signal, useComputed } from '@preact/signals';
import { client, store } from './context.ts';
import { go, hashFor } from './nav.ts';
import { errorText, showToast } from './state.ts';
import { Avatar } from './Header.tsx';
import { FilterBox, MentionMark, focusFirstRow, onListKeyDown } from './conversation-list.tsx';
import { RecentHistory } from '../api/recent.ts';
import { DEFAULT_RECENT_FILTERS, conversationContext, filterRecent, narrowOf, recentRows, type RecentFilters, type RecentRow } from '../store/conversations.ts';
import { fullTimestamp, relativeTime, resolveLocale } from '../lib/time.ts';
import type { Client } from '../api/client.ts';

const FILTERS_KEY = 'parley-recent-filters';
const MAX_AVATARS = 4;

function storedFilters(): RecentFilters {
  try {
    const saved = JSON.parse(localStorage.getItem(FILTERS_KEY) ?? '{}') as Partial<RecentFilters>;
    return { ...DEFAULT_RECENT_FILTERS, ...saved, text: '' };
  } catch {
    return DEFAULT_RECENT_FILTERS;
  }
}

const filters = signal<RecentFilters>(storedFilters());

function setFilters(patch: Partial<RecentFilters>): void {
  filters.value = { ...filters.value, ...patch };
  const { text: _text, ...kept } = filters.value;
  try {
    localStorage.setItem(FILTERS_KEY, JSON.stringify(kept));
  } catch {
    /* kept for this page */
  }
}

let history: { client: Client; history: RecentHistory } | null = null;
function recentHistory(): RecentHistory {
  if (history?.client !== client) history = { client, history: new RecentHistory(client) };
  return history.history;
}

function Toggle({ prop, children }: { prop: 'unreadOnly' | 'participated' | 'includeMuted'; children: string }) {
  const on = filters.value[prop];
  return (
    <button type="button" class={`chip ${on ? 'on' : ''}`} aria-pressed={on} onClick={() => setFilters({ [prop]: !on })}>
      {children}
    </button>
  );
}

function People({ ids }: { ids: number[] }) {
  const names = ids.map((id) => store.users.name(id));
  const extra = ids.length - MAX_AVATARS;
  return (
    <span class="rc-people" title={names.join(', ')}>
      {ids.slice(0, MAX_AVATARS).map((id) => (
        <Avatar key={id} userId={id} size={22} />
      ))}
      {extra > 0 && (
        <span class="rc-more" aria-hidden="true">
          +{extra}
        </span>
      )}
      <span class="sr-only">{names.join(', ')}</span>
    </span>
  );
}

function Row({ row, now, twentyFour, locale }: { row: RecentRow; now: number; twentyFour: boolean; locale: string }) {
  const c = row.conversation;
  const sub = c.type === 'stream' ? store.streams.subs.value.get(c.streamId) : undefined;
  return (
    // A click anywhere on the row opens it, as its topic link does (the link is what keys reach).
    <tr
      class={`rc-row ${row.unread ? 'has-unread' : ''} ${row.muted ? 'is-muted' : ''}`}
      data-row
      onClick={(e) => {
        if (!(e.target as HTMLElement).closest('a, button')) go(narrowOf(c));
      }}
    >
      <td class="rc-where">
        {c.type === 'stream' ? (
          <a href={hashFor([{ operator: 'stream', operand: c.streamId }])} class="rc-stream">
            <span class="swatch" style={{ background: sub?.color ?? '#c2c2c2' }} aria-hidden="true">
              {sub?.invite_only ? '🔒' : '#'}
            </span>
            {/* Names cut by the column's width show whole on hover. */}
            <span class="rc-stream-name" title={row.label}>
              {row.label}
            </span>
          </a>
        ) : (
          <span class="rc-dm-tag">Direct message</span>
        )}
      </td>
      <td class="rc-topic">
        <div class="rc-topic-line">
          <a href={hashFor(narrowOf(c))} data-nav title={c.type === 'stream' ? row.topicLabel : row.label}>
            {c.type === 'stream' ? row.topicLabel : row.label}
          </a>
          <MentionMark n={row.mentions} />
        </div>
      </td>
      <td class="rc-unread">
        {row.unread > 0 && (
          <span class="count" aria-label={`${row.unread} unread`}>
            {row.unread}
          </span>
        )}
      </td>
      <td class="rc-participants">
        <People ids={row.senders} />
      </td>
      <td class="rc-time">
        <time dateTime={new Date(row.timestamp * 1000).toISOString()} title={fullTimestamp(row.timestamp, { twentyFourHour: twentyFour, locale })}>
          {relativeTime(row.timestamp, now, locale)}
        </time>
      </td>
    </tr>
  );
}

/**
 * Someone new has no conversations of their own, but their streams have a history to read: the
 * empty list leads there rather than to nothing.
 */
function YourStreams() {
  const streams = [...store.streams.subs.value.keys()].map((id) => ({ id, name: store.streams.name(id) })).sort((a, b) => a.name.localeCompare(b.name));
  if (streams.length === 0) return null;
  return (
    <nav class="empty-list your-streams" aria-label="Your streams">
      Catch up on your streams:{' '}
      {streams.map((st, i) => (
        <span key={st.id}>
          {i > 0 && ', '}
          <a href={hashFor([{ operator: 'stream', operand: st.id }])}>#{st.name}</a>
        </span>
      ))}
    </nav>
  );
}

export function Recent() {
  const ctx = useMemo(() => conversationContext(store), []);
  const all = useComputed(() => {
    void store.unread.version.value;
    void store.messages.version.value;
    return recentRows(store.messages.byId.values(), store.unread.entries, ctx.value);
  });
  const rows = useComputed(() => filterRecent(all.value, filters.value, ctx.value)).value;
  const root = useRef<HTMLDivElement>(null);
  const h = recentHistory();
  const [loadError, setLoadError] = useState('');

  useEffect(() => {
    client.current = null;
    h.refresh()
      .then(() => focusFirstRow(root.current))
      .catch((e) => setLoadError(errorText(e)));
  }, [h]);

  const more = () => void h.more().catch((e) => showToast(`Could not load more conversations: ${errorText(e)}`, true));
  const f = filters.value;
  const now = store.users.now.value;
  const user = store.settings.user.value;
  const twentyFour = user.twenty_four_hour_time === true;
  const locale = resolveLocale(String(user.default_language ?? navigator.language));
  // Before the first page arrives there is nothing to say "no conversations" about.
  const loading = h.loading.value || (h.oldest.value === null && !h.foundOldest.value && !loadError);

  return (
    <main class="messages conv-view" aria-label="Recent conversations">
      <div class="narrow-bar conv-bar">
        <h1>Recent conversations</h1>
      </div>
      <div class="scroller conv-scroller" ref={root} onKeyDown={(e) => onListKeyDown(e, root.current)}>
        <div class="conv-tools" role="group" aria-label="Filters">
          <FilterBox value={f.text} onInput={(text) => setFilters({ text })} label="Filter conversations" />
          <Toggle prop="unreadOnly">Unread</Toggle>
          <Toggle prop="participated">Participated</Toggle>
          <Toggle prop="includeMuted">Include muted</Toggle>
          <select class="chip-select" aria-label="Conversation kind" value={f.kind} onChange={(e) => setFilters({ kind: e.currentTarget.value as RecentFilters['kind'] })}>
            <option value="all">Streams and DMs</option>
            <option value="streams">Streams only</option>
            <option value="dms">Direct messages only</option>
          </select>
        </div>
        {rows.length > 0 && (
          <table class="recent-table">
            <thead>
              <tr>
                <th scope="col" class="rc-where">Stream</th>
                <th scope="col" class="rc-topic">Topic</th>
                <th scope="col" class="rc-unread">
                  <span class="sr-only">Unread</span>
                </th>
                <th scope="col" class="rc-participants">Participants</th>
                <th scope="col" class="rc-time">Time</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Row key={r.key} row={r} now={now} twentyFour={twentyFour} locale={locale} />
              ))}
            </tbody>
          </table>
        )}
        {loadError && (
          <p class="empty-list" role="alert">
            Could not load recent conversations: {loadError}
          </p>
        )}
        {rows.length === 0 && !loadError && (
          <p class="empty-list conv-empty" role="status">
            {loading ? 'Loading conversations…' : all.value.length ? 'No conversations match your filters.' : 'No conversations yet.'}
          </p>
        )}
        {rows.length === 0 && !loadError && !loading && all.value.length === 0 && <YourStreams />}
        <div class="load-more">
          {h.foundOldest.value ? (
            // Beside "No conversations…" it would say the same thing twice.
            rows.length > 0 && <p class="list-edge">You have seen every conversation.</p>
          ) : (
            <button type="button" onClick={more} disabled={loading}>
              {loading ? 'Loading…' : 'Load more conversations'}
            </button>
          )}
        </div>
      </div>
    </main>
  );
}
