// The message list of the current narrow: a window of at most MAX_ROWS messages of the loaded
// list is in the DOM (so 100,000 loaded messages stay smooth), moved as the person scrolls;
// when rows are added or dropped above, the scroll position is kept on a visible message.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { effect } from '@preact/signals';
import { client, store } from './context.ts';
import { selectedId, selectWhenShown, showToast, errorText } from './state.ts';
import { currentNarrow, narrowTitle, unknownStreamName } from './nav.ts';
import { MessageRow, RecipientBar, DateSeparator, conversationKey } from './Message.tsx';
import { TypingLine } from './Typing.tsx';
import { dayKey } from '../lib/time.ts';
import type { MessageList } from '../store/messages.ts';
import type { Narrow } from '../store/types.ts';
import { marksReadOnScroll } from '../lib/display.ts';
import { emptyNarrowText } from '../lib/narrow.ts';
import { NetworkError } from '../api/http.ts';
import { settingsApi } from './settings/api.ts';

const MAX_ROWS = 240;
const STEP = 80;
const EDGE_PX = 800;

/** Index of the first ID >= id in a sorted list. */
export function lowerBound(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function MessageView() {
  const narrow = currentNarrow();
  const key = JSON.stringify(narrow);
  const list = useMemo(() => store.messages.list(narrow), [key]);
  const [loadError, setLoadError] = useState<{ text: string; retry: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const unknown = unknownStreamName(narrow);
  useEffect(() => {
    client.current = list;
    client.keptUnread.clear();
    setLoadError(null);
    // Nothing to ask the server for a stream the app does not know; it loads if the stream comes.
    if (unknown !== null) return;
    // A list refetches when opened if it may have missed messages (live search results).
    const load = list.loaded ? (list.foundNewest ? Promise.resolve() : client.catchUp(list)) : client.loadInitial(list);
    load.catch((e) =>
      setLoadError(e instanceof NetworkError ? { text: 'the server cannot be reached; trying again…', retry: true } : { text: errorText(e), retry: false }),
    );
  }, [list, unknown === null, attempt]);
  // A load the network failed is tried again a moment after the connection is (or is back) up.
  useEffect(() => {
    if (!loadError?.retry) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = effect(() => {
      clearTimeout(timer);
      if (client.status.value === 'connected') timer = setTimeout(() => setAttempt((a) => a + 1), 2000);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [loadError]);
  // An unknown stream by the name its link gave (its ID said nothing).
  const title = narrowTitle(unknown === null ? narrow : narrow.map((t) => (t.operator === 'stream' ? { ...t, operand: unknown } : t)));
  return (
    <main class="messages" aria-label={`Messages: ${title}`}>
      <div class="narrow-bar">
        <h1>{title}</h1>
        <SubscribeButton narrow={narrow} />
        <MarkReadButton list={list} />
      </div>
      {unknown !== null ? (
        <UnknownStream name={unknown} />
      ) : loadError ? (
        <p class="empty-list" role="alert">
          Could not load messages: {loadError.text}
        </p>
      ) : (
        <ListBody key={list.key} list={list} search={narrow.some((t) => t.operator === 'search')} conversation={isConversation(narrow)} />
      )}
      <TypingLine />
    </main>
  );
}

/**
 * A stream the app does not know (a link written with a name since changed, or to a stream
 * archived or private) is said in words, with the way to the streams there are.
 */
function UnknownStream({ name }: { name: string }) {
  return (
    <p class="empty-list" role="alert">
      There is no stream named “{name}” that you can see: it may have been renamed or archived, or be private. <a href="#settings/streams">Browse streams</a>
    </p>
  );
}

/**
 * A stream looked at without being subscribed (from Your streams, a link or a search) says so,
 * and is joined from here (it took a trip back to the settings).
 */
function SubscribeButton({ narrow }: { narrow: Narrow }) {
  const [busy, setBusy] = useState(false);
  const id = narrow.find((t) => t.operator === 'stream')?.operand;
  if (typeof id !== 'number' || store.streams.subs.value.has(id) || !store.streams.streams.value.has(id)) return null;
  const name = store.streams.name(id);
  async function subscribe() {
    setBusy(true);
    try {
      await settingsApi().subscribe(name, [store.me]);
    } catch (e) {
      showToast(`Could not subscribe: ${errorText(e)}`, true);
    }
    setBusy(false);
  }
  return (
    <span class="narrow-note">
      You are not subscribed to this stream.
      <button type="button" class="primary" disabled={busy} onClick={() => void subscribe()}>
        Subscribe <span class="sr-only">to {name}</span>
      </button>
    </span>
  );
}

/**
 * Where messages are not marked read by scrolling (web_mark_read_on_scroll_policy), a button
 * marks the loaded unread messages of the narrow read.
 */
function MarkReadButton({ list }: { list: MessageList }) {
  void list.version.value;
  void store.unread.version.value;
  if (marksReadOnScroll(store.settings.user.value, list.narrow)) return null;
  const unread = list.ids.filter((id) => store.unread.has(id));
  if (unread.length === 0) return null;
  return (
    <button type="button" class="mark-read" onClick={() => client.markRead(unread)}>
      Mark as read
    </button>
  );
}

/** A stream, a topic or a direct message conversation: what has a beginning to show (not All messages, Mentions or a search). */
function isConversation(narrow: Narrow): boolean {
  return !narrow.some((t) => t.operator === 'search') && narrow.some((t) => !t.negated && (t.operator === 'stream' || t.operator === 'channel' || t.operator === 'dm'));
}

function ListBody({ list, search, conversation }: { list: MessageList; search: boolean; conversation: boolean }) {
  void list.version.value;
  void store.messages.version.value;
  const ids = list.ids;
  const scroller = useRef<HTMLDivElement>(null);
  const win = useRef<{ first: number | null; last: number | null; init: boolean }>({ first: null, last: null, init: false });
  const keep = useRef<{ id: number; offset: number } | null>(null);
  const initialScroll = useRef(false);
  const stick = useRef(false);
  const [, setTick] = useState(0);
  const rerender = () => setTick((t) => t + 1);
  // The list was replaced by another stretch (the present, after a send from far back): start over there.
  const generation = useRef(list.generation);
  if (generation.current !== list.generation) {
    generation.current = list.generation;
    win.current = { first: null, last: null, init: false };
    keep.current = null;
  }

  if (!win.current.init && list.loaded) {
    const anchor = list.anchor ?? ids[ids.length - 1] ?? 0;
    const at = Math.min(lowerBound(ids, anchor), Math.max(0, ids.length - 1));
    const start = Math.max(0, at - STEP);
    const end = Math.min(ids.length, at + MAX_ROWS - STEP);
    win.current = { first: ids[start] ?? null, last: end >= ids.length ? null : ids[end - 1]!, init: true };
    initialScroll.current = true;
    if (selectedId.peek() === null || !ids.includes(selectedId.peek()!)) selectedId.value = ids[at] ?? null;
  }
  const sent = selectWhenShown.value;
  if (sent !== null && ids.includes(sent)) {
    selectWhenShown.value = null;
    selectedId.value = sent;
  }
  const start = win.current.first === null ? 0 : lowerBound(ids, win.current.first);
  const end = win.current.last === null ? ids.length : lowerBound(ids, win.current.last + 1);

  function saveScroll() {
    const el = scroller.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    for (const a of el.querySelectorAll<HTMLElement>('article[data-id]')) {
      const r = a.getBoundingClientRect();
      if (r.bottom > top) {
        keep.current = { id: Number(a.dataset.id), offset: r.top - top };
        return;
      }
    }
  }

  function setWindow(s: number, e: number) {
    s = Math.max(0, s);
    e = Math.min(ids.length, e);
    win.current.first = ids[s] ?? null;
    win.current.last = e >= ids.length ? null : (ids[e - 1] ?? null);
  }

  function markVisibleRead() {
    const el = scroller.current;
    if (!el || search || document.hidden || !document.hasFocus() || !marksReadOnScroll(store.settings.user.peek(), list.narrow)) return;
    const box = el.getBoundingClientRect();
    const seen: number[] = [];
    for (const a of el.querySelectorAll<HTMLElement>('article[data-unread]')) {
      const r = a.getBoundingClientRect();
      // Seen: its end is on screen (a tall message counts once you reach its end).
      const id = Number(a.dataset.id);
      if (r.bottom <= box.bottom + 2 && r.bottom >= box.top + 10 && !client.keptUnread.has(id)) seen.push(id);
    }
    if (seen.length) client.markRead(seen);
  }

  /**
   * Whether the list follows new messages: its end is in the window and scrolled to; returns how
   * far below the view the end is. Updated on the person's scrolls (the scroll event) and at once
   * after the list's own (a selection scrolled into view): that scroll's event comes only at the
   * next frame, and a render before it (a key repeat, a new message, a read-flags event) would
   * take the stale "at the bottom" and scroll back down, leaving the selected message out of sight.
   */
  function updateStick(el: HTMLElement): number {
    const below = el.scrollHeight - el.scrollTop - el.clientHeight;
    stick.current = below < 40 && win.current.last === null && list.foundNewest;
    return below;
  }

  /**
   * Whether scrolling to the end would take the top of the selected message out of sight (under
   * the sticky recipient bar): the list then stays where it is. Within 40 px of the end counts
   * as at the end, so a selection just scrolled into view there (the arrow keys going up, a new
   * message coming meanwhile) was pulled back under the bar by the next render.
   */
  function bottomHidesSelection(el: HTMLElement): boolean {
    const row = el.querySelector<HTMLElement>(`article[data-id="${selectedId.peek()}"]`);
    if (!row) return false;
    const bottom = el.scrollHeight - el.clientHeight;
    const top = row.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop - bottom;
    return top < parseFloat(getComputedStyle(el).scrollPaddingTop || '0');
  }

  const busy = useRef(false);
  async function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const below = updateStick(el);
    markVisibleRead();
    if (busy.current) return;
    if (el.scrollTop < EDGE_PX) {
      if (start > 0) {
        saveScroll();
        const s = start - STEP;
        setWindow(s, Math.min(end, Math.max(0, s) + MAX_ROWS));
        rerender();
      } else if (!list.foundOldest && ids.length) {
        busy.current = true;
        const first = ids[0]!;
        // Kept from before the fetch: the render it causes drops the rows above the first
        // message (date separator, recipient bar, "Loading"), which would move it.
        saveScroll();
        try {
          await client.loadOlder(list);
        } catch (e) {
          showToast(`Could not load older messages: ${errorText(e)}`, true);
        }
        busy.current = false;
        saveScroll();
        const at = lowerBound(list.ids, first);
        win.current.first = list.ids[Math.max(0, at - STEP)] ?? null;
        rerender();
      }
    } else if (below < EDGE_PX) {
      if (win.current.last !== null) {
        saveScroll();
        const e = end + STEP;
        setWindow(Math.max(start, e - MAX_ROWS), e);
        rerender();
      } else if (!list.foundNewest && ids.length) {
        busy.current = true;
        try {
          await client.loadNewer(list);
        } catch (e) {
          showToast(`Could not load newer messages: ${errorText(e)}`, true);
        }
        busy.current = false;
      }
    }
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (scrollToSel.current) {
      scrollToSel.current = false;
      el.querySelector<HTMLElement>(`article[data-id="${selectedId.peek()}"]`)?.scrollIntoView({ block: 'center' });
      updateStick(el);
    } else if (initialScroll.current && ids.length) {
      initialScroll.current = false;
      const anchor = list.anchor ?? Infinity;
      const target = el.querySelector<HTMLElement>(`article[data-id="${selectedId.peek() ?? anchor}"]`);
      const last = ids[ids.length - 1]!;
      if (!target || (anchor >= last && list.foundNewest && selectedId.peek() === last)) {
        el.scrollTop = el.scrollHeight;
        stick.current = list.foundNewest;
      } else {
        // The first unread message near the top, with some context above it.
        el.scrollTop = Math.max(0, target.offsetTop - el.clientHeight / 4);
      }
    } else if (keep.current) {
      const k = keep.current;
      keep.current = null;
      const a = el.querySelector<HTMLElement>(`article[data-id="${k.id}"]`);
      if (a) el.scrollTop += a.getBoundingClientRect().top - el.getBoundingClientRect().top - k.offset;
    } else if (stick.current && !bottomHidesSelection(el)) {
      if (end - start > MAX_ROWS) {
        win.current.first = ids[end - MAX_ROWS] ?? null;
        rerender();
      }
      el.scrollTop = el.scrollHeight;
    }
    markVisibleRead();
  });

  // A new selection (keyboard, link) scrolls into view, moving the window first when needed;
  // moving the window for other reasons never scrolls to the selection.
  const sel = selectedId.value;
  const scrollToSel = useRef(false);
  useEffect(() => {
    if (sel === null) return;
    const i = lowerBound(ids, sel);
    if (ids[i] !== sel) return;
    if (i < start || i >= end) {
      setWindow(i - STEP, i - STEP + MAX_ROWS);
      scrollToSel.current = true;
      rerender();
      return;
    }
    const el = scroller.current;
    const row = el?.querySelector<HTMLElement>(`article[data-id="${sel}"]`);
    if (!el || !row) return;
    row.scrollIntoView({ block: 'nearest' });
    updateStick(el);
  }, [sel]);

  // A message holding the focus (after its edit) hands it to the next one selected, so the focus
  // ring and the selection stay on one message.
  useEffect(() => {
    const el = scroller.current;
    const active = document.activeElement;
    if (!el || sel === null || !(active instanceof HTMLElement) || active.tagName !== 'ARTICLE' || !el.contains(active)) return;
    const next = el.querySelector<HTMLElement>(`article[data-id="${sel}"]`);
    if (!next || next === active) return;
    next.tabIndex = -1;
    next.focus({ preventScroll: true });
  }, [sel]);

  useEffect(() => {
    const again = () => markVisibleRead();
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', again);
    return () => {
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', again);
    };
  }, []);

  const twentyFour = store.settings.user.value.twenty_four_hour_time === true;
  const rows = [];
  for (let i = start; i < end; i++) {
    const m = store.messages.byId.get(ids[i]!);
    if (!m) continue;
    // The first row shown always has its date and recipient bar, so what is above it does not
    // change when older messages arrive beyond the window.
    const prev = i > start ? store.messages.byId.get(ids[i - 1]!) : undefined;
    const newDay = !prev || dayKey(prev.timestamp) !== dayKey(m.timestamp);
    const newConversation = !prev || newDay || conversationKey(prev) !== conversationKey(m);
    if (newDay) rows.push(<DateSeparator key={`d${m.id}`} ts={m.timestamp} />);
    if (newConversation) rows.push(<RecipientBar key={`r${m.id}`} m={m} />);
    const grouped = !newConversation && prev!.sender_id === m.sender_id && m.timestamp - prev!.timestamp < 600;
    rows.push(<MessageRow key={m.id} m={m} grouped={grouped} selected={sel === m.id} unread={store.unread.has(m.id)} twentyFour={twentyFour} />);
  }

  return (
    <div class="scroller" ref={scroller} onScroll={() => void onScroll()}>
      {conversation && list.foundOldest && start === 0 && list.loaded && ids.length > 0 && <p class="list-edge">This is the beginning of the conversation.</p>}
      {!list.foundOldest && (start === 0 || busy.current) && ids.length > 0 && <p class="list-edge">Loading older messages…</p>}
      {rows}
      {list.loaded && ids.length === 0 && <p class="empty-list">{emptyNarrowText(list.narrow)}</p>}
      {!list.loaded && (
        <p class="empty-list" role="status">
          Loading messages…
        </p>
      )}
    </div>
  );
}
