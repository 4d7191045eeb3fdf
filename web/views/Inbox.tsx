// The Inbox: every conversation with unread messages, direct messages first, then streams in
// the sidebar's order with their topics; groups collapse, a filter narrows the list, rows open
// their conversation or are marked read in place. Live from the store's unread entries.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { signal, useComputed } from '@preact/signals';
import { client, store } from './context.ts';
import { hashFor } from './nav.ts';
import { Avatar } from './Header.tsx';
import { FilterBox, MentionMark, focusFirstRow, onListKeyDown } from './conversation-list.tsx';
import { conversationContext, inboxGroups, narrowOf, type InboxRow } from '../store/conversations.ts';

const COLLAPSED_KEY = 'parley-inbox-collapsed';

function storedCollapsed(): Set<string> {
  try {
    return new Set(JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

/** Kept across visits, as the reference does. */
const filter = signal('');
const collapsed = signal<Set<string>>(storedCollapsed());

function toggle(key: string): void {
  const next = new Set(collapsed.value);
  if (!next.delete(key)) next.add(key);
  collapsed.value = next;
  try {
    localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
  } catch {
    /* kept for this page */
  }
}

function Chevron({ open }: { open: boolean }) {
  return (
    <svg class={`chevron ${open ? 'open' : ''}`} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d="M6 3l5 5-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

function Unread({ n }: { n: number }) {
  return (
    <span class="count" aria-label={`${n} unread`}>
      {n}
    </span>
  );
}

/** The row whose focus a mark-read removed, to focus the row that takes its place. */
let refocusAt = -1;

function MarkRead({ label, ids }: { label: string; ids: number[] }) {
  const onClick = (e: MouseEvent) => {
    const button = e.currentTarget as HTMLElement;
    const root = button.closest('.conv-scroller');
    if (root) refocusAt = [...root.querySelectorAll('[data-nav]')].findIndex((n) => n.closest('[data-row]')?.contains(button));
    client.markRead(ids);
  };
  return (
    <button type="button" class="mark-read" aria-label={`Mark ${label} as read`} title="Mark as read" onClick={onClick}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </button>
  );
}

function Row({ row, label }: { row: InboxRow; label: string }) {
  const c = row.conversation;
  return (
    <li class="inbox-row" data-row>
      <a href={hashFor(narrowOf(c))} class="inbox-link" data-nav>
        {c.type === 'dm' && (
          <span class="inbox-avatars" aria-hidden="true">
            {c.userIds.slice(0, 2).map((id) => (
              <Avatar key={id} userId={id} size={22} />
            ))}
          </span>
        )}
        <span class="inbox-label" title={row.label}>
          {row.label}
        </span>
        <MentionMark n={row.mentions} />
        <Unread n={row.count} />
      </a>
      <MarkRead label={label} ids={row.ids} />
    </li>
  );
}

function Group({ id, title, markLabel, swatch, color, count, mentions, ids, children }: { id: string; title: string; markLabel: string; swatch?: preact.ComponentChildren; color?: string; count: number; mentions: number; ids: number[]; children: preact.ComponentChildren }) {
  const open = !collapsed.value.has(id);
  const listId = `inbox-${id.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <section class="inbox-group" aria-label={title} style={color ? { '--stream-color': color } : undefined}>
      <div class="inbox-header" data-row>
        <button type="button" class="inbox-toggle" aria-expanded={open} aria-controls={open ? listId : undefined} data-nav onClick={() => toggle(id)}>
          <Chevron open={open} />
          {swatch}
          {/* Names cut by the row's width show whole on hover. */}
          <span class="inbox-title" title={title}>
            {title}
          </span>
          <MentionMark n={mentions} />
          <Unread n={count} />
        </button>
        <MarkRead label={markLabel} ids={ids} />
      </div>
      {open && (
        <ul class="inbox-rows" id={listId}>
          {children}
        </ul>
      )}
    </section>
  );
}

export function Inbox() {
  const ctx = useMemo(() => conversationContext(store), []);
  const groups = useComputed(() => {
    void store.unread.version.value;
    return inboxGroups(store.unread.entries, ctx.value, filter.value);
  }).value;
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The keys move between rows here; the message list's keys have no list to act on.
    client.current = null;
    focusFirstRow(root.current);
  }, []);

  // A row marked read leaves: focus goes to the row that took its place.
  useLayoutEffect(() => {
    const el = root.current;
    if (!el || refocusAt < 0 || (document.activeElement && document.activeElement !== document.body)) return;
    const items = el.querySelectorAll<HTMLElement>('[data-nav]');
    items[Math.min(refocusAt, items.length - 1)]?.focus();
    refocusAt = -1;
  });

  const empty = groups.dms.length === 0 && groups.streams.length === 0;
  const dmCount = groups.dms.reduce((n, r) => n + r.count, 0);
  return (
    <main class="messages conv-view" aria-label="Inbox">
      <div class="narrow-bar conv-bar">
        <h1>Inbox</h1>
      </div>
      <div class="scroller conv-scroller" ref={root} onKeyDown={(e) => onListKeyDown(e, root.current)}>
        <div class="conv-tools">
          <FilterBox value={filter.value} onInput={(v) => (filter.value = v)} label="Filter conversations" />
        </div>
        {empty && (
          <p class="empty-list conv-empty" role="status">
            {filter.value.trim() ? 'No unread conversations match your filter.' : 'You have no unread messages. 🎉'}
          </p>
        )}
        {groups.dms.length > 0 && (
          <Group id="dms" title="Direct messages" markLabel="all direct messages" count={dmCount} mentions={groups.dms.reduce((n, r) => n + r.mentions, 0)} ids={groups.dms.flatMap((r) => r.ids)}>
            {groups.dms.map((r) => (
              <Row key={r.key} row={r} label={`your conversation with ${r.label}`} />
            ))}
          </Group>
        )}
        {groups.streams.map((s) => (
          <Group
            key={s.key}
            id={s.key}
            title={s.name}
            markLabel={`all of ${s.name}`}
            swatch={
              <span class="swatch" style={{ background: s.color }} aria-hidden="true">
                {store.streams.subs.value.get(s.streamId)?.invite_only ? '🔒' : '#'}
              </span>
            }
            color={s.color}
            count={s.count}
            mentions={s.mentions}
            ids={s.topics.flatMap((t) => t.ids)}
          >
            {s.topics.map((t) => (
              <Row key={t.key} row={t} label={`${s.name} > ${t.label}`} />
            ))}
          </Group>
        ))}
      </div>
    </main>
  );
}
