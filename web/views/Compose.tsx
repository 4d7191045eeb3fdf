// Compose: to a stream and topic, or a DM to one or more people. Enter sends and Shift+Enter
// starts a new line (swappable); the text is kept as a server draft while unsent; typing is
// announced to the others; files attach by button, drag and drop or paste.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { signal } from '@preact/signals';
import { client, store } from './context.ts';
import { compose, composeFocus, selectedId, selectWhenShown, showToast, errorText, type ComposeState, enterNewlinePref, sendsMessage, view, type View } from './state.ts';
import { currentNarrow, go, narrowTitle, unknownStreamName } from './nav.ts';
import { dmUserIds, filedTopic, narrowMatches, operandIds } from '../store/match.ts';
import { composeBlocked, ROLE } from '../store/permissions.ts';
import type { Draft, Message, Narrow } from '../store/types.ts';
import { ClipIcon, CloseIcon } from './icons.tsx';
import { SuggestionList, comboProps, messageSuggestions, suggestionKey, suggestions, topicSuggestions, type Choice, type SuggestState } from './Suggestions.tsx';
import { RecipientPills } from './RecipientPills.tsx';
import { useAutoGrow } from './autogrow.ts';

/** A local time as a datetime-local input's value (minutes). */
function inputValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** "Send later" proposes the next morning at nine, as the reference's first choice does. */
function tomorrowAtNine(): Date {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(9, 0, 0, 0);
  return d;
}

/** The times "Send later" offers at a tap; any other goes in its time field. */
function laterChoices(): [string, Date][] {
  const hour = new Date(Date.now() + 3600_000);
  const monday = new Date();
  monday.setDate(monday.getDate() + (((8 - monday.getDay()) % 7) || 7));
  monday.setHours(9, 0, 0, 0);
  return [
    ['In an hour', hour],
    ['Tomorrow at 9:00', tomorrowAtNine()],
    ['Monday at 9:00', monday],
  ];
}

/** A view of direct messages (one conversation or all of them): no topic to start there. */
function dmView(narrow: Narrow): boolean {
  return narrow.some((t) => !t.negated && (t.operator === 'dm' || (t.operator === 'is' && t.operand === 'dm')));
}

/** Where compose would send from the narrow on screen. */
export function composeTarget(newTopic = false): ComposeState {
  const narrow = currentNarrow();
  // Without a topic in the narrow, compose answers the selected message, as the reference does.
  const sel = selectedId.peek() === null ? undefined : store.messages.byId.get(selectedId.peek()!);
  const inView = client.current?.ids.includes(sel?.id ?? -1);
  if (!newTopic && sel && inView && !narrow.some((t) => t.operator === 'topic' || t.operator === 'dm')) {
    if (sel.type === 'stream') return { type: 'stream', streamId: sel.stream_id!, topic: sel.subject, content: '' };
    const others = dmUserIds(sel).filter((id) => id !== store.me);
    return { type: 'private', to: others.length ? others : [store.me], content: '' };
  }
  const stream = narrow.find((t) => t.operator === 'stream');
  const topic = narrow.find((t) => t.operator === 'topic');
  const dm = narrow.find((t) => t.operator === 'dm');
  if (dm && !newTopic) return { type: 'private', to: operandIds(dm.operand), content: '' };
  // From direct messages a new topic has no stream to go to: the person chooses one.
  if (dmView(narrow)) return { type: 'stream', streamId: null, topic: '', content: '' };
  // A stream the app does not know (a stale link) is left for the person to choose: it showed as "#stream NaN".
  const streamId = !stream ? (store.streams.sorted.value[0]?.stream_id ?? null) : unknownStreamName(narrow) === null ? Number(stream.operand) : null;
  return { type: 'stream', streamId, topic: topic && !newTopic ? String(topic.operand) : '', content: '' };
}

/**
 * A sent message's conversation, when the view on screen does not show it (another narrow,
 * Recent conversations, the inbox): compose stays where it is, so a notice says where it went.
 */
function sentElsewhere(c: ComposeState, id: number, onScreen: Narrow | null): Narrow | null {
  const me = store.me;
  const topic = c.type === 'stream' ? filedTopic(c.topic) : '';
  const narrow: Narrow = c.type === 'stream' ? [{ operator: 'channel', operand: c.streamId! }, { operator: 'topic', operand: topic }] : [{ operator: 'dm', operand: c.to }];
  if (onScreen !== null) {
    const m = {
      id,
      type: c.type,
      stream_id: c.type === 'stream' ? c.streamId : undefined,
      subject: topic,
      display_recipient: c.type === 'private' ? [...new Set([...c.to, me])].map((u) => ({ id: u })) : '',
      sender_id: me,
      flags: ['read'],
    } as unknown as Message;
    // Shown, or a narrow the client cannot decide (a search): no notice.
    if (narrowMatches(onScreen, m, me) !== false) return null;
  }
  return narrow;
}

/** The last message sent, while the view it was sent from (which does not show it) is on screen. */
const sentNotice = signal<{ label: string; narrow: Narrow; view: View } | null>(null);

/** Says where the last message went when the view on screen does not show it, with a way there. */
function SentNotice() {
  const n = sentNotice.value;
  if (!n || n.view !== view.value) return null;
  return (
    <div class="compose-sent" role="status">
      <span>Sent to {n.label}.</span>
      <button
        type="button"
        class="link-button"
        onClick={() => {
          sentNotice.value = null;
          go(n.narrow);
        }}
      >
        Go to conversation
      </button>
      <button type="button" class="icon-button" aria-label="Dismiss" onClick={() => (sentNotice.value = null)}>
        <CloseIcon />
      </button>
    </div>
  );
}

/** Where a message went, for the notice: "#design > logo", or the people of a DM ("Bob, Carol"). */
function sentToLabel(c: ComposeState, narrow: Narrow): string {
  if (c.type === 'stream') return narrowTitle(narrow);
  const others = c.to.filter((id) => id !== store.me);
  if (others.length === 0) return 'yourself';
  return others.map((id) => store.users.get(id)?.full_name ?? 'Unknown user').join(', ');
}

/** The narrow on screen, or null when the view is not a list of messages. */
function currentView(): Narrow | null {
  const v = view.peek();
  return v.kind === 'narrow' ? v.narrow : null;
}

function sameRecipient(d: Draft, c: ComposeState): boolean {
  if (c.type === 'stream') return d.type === 'stream' && d.to[0] === c.streamId && d.topic.toLowerCase() === c.topic.toLowerCase();
  return d.type === 'private' && [...d.to].sort().join(',') === [...c.to].sort().join(',');
}

/** Opens compose, restoring a saved draft to the same conversation. */
export function openCompose(c: ComposeState, focus: 'message' | 'topic' | 'to' = 'message'): void {
  if (!c.content) {
    const draft = [...store.drafts.byId.value.values()].filter((d) => sameRecipient(d, c)).sort((a, b) => b.timestamp - a.timestamp)[0];
    if (draft) c = { ...c, content: draft.content, draftId: draft.id };
  }
  compose.value = c;
  composeFocus.value = focus;
}

export function ComposeButtons() {
  // In direct messages, as in the reference, there is no "New topic": Compose answers the
  // conversation and "New direct message" starts another (it opened a message to the first stream).
  const dms = dmView(currentNarrow());
  return (
    <div class="compose-buttons">
      <button type="button" class="primary" onClick={() => openCompose(composeTarget())}>
        Compose
      </button>
      {!dms && (
        <button type="button" onClick={() => openCompose(composeTarget(true), 'topic')}>
          New topic
        </button>
      )}
      <button type="button" onClick={() => openCompose({ type: 'private', to: [], content: '' }, 'to')}>
        New direct message
      </button>
    </div>
  );
}

export function Compose() {
  const c = compose.value!;
  const [preview, setPreview] = useState<string | null>(null);
  const [uploads, setUploads] = useState<{ id: number; name: string; progress: number }[]>([]);
  const [sending, setSending] = useState(false);
  /** While choosing when to send later: the chosen local time (a datetime-local value). */
  const [later, setLater] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const text = useRef<HTMLTextAreaElement>(null);
  const topicRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const typingSent = useRef(0);
  const typingIdle = useRef<ReturnType<typeof setTimeout>>();
  const draftTimer = useRef<ReturnType<typeof setTimeout>>();
  /** The text of a send that has not been answered yet. */
  const inFlight = useRef<string | null>(null);
  const subs = store.streams.sorted.value;
  const blocked = composeBlocked(
    c.type === 'stream'
      ? { type: 'stream', streamName: store.streams.name(c.streamId ?? undefined), postPolicy: (store.streams.subs.value.get(c.streamId ?? -1) as { stream_post_policy?: number } | undefined)?.stream_post_policy, topic: c.topic, content: c.content }
      : { type: 'private', recipients: c.to.length, toOneBot: c.to.filter((id) => id !== store.me).length === 1 && c.to.some((id) => id !== store.me && store.users.get(id)?.is_bot === true) },
    store.users.get(store.me)?.role ?? ROLE.MEMBER,
    store.settings.realm.value,
  );

  useLayoutEffect(() => {
    const f = composeFocus.value;
    if (!f) return;
    composeFocus.value = null;
    const el = f === 'topic' ? topicRef.current : f === 'to' ? toRef.current : text.current;
    el?.focus();
    if (el === text.current && text.current) text.current.setSelectionRange(text.current.value.length, text.current.value.length);
  }, [composeFocus.value]);

  // A long message or a quote shows whole while it is written (it filled three lines and scrolled).
  useAutoGrow(text, [c.content, preview === null]);

  const update = (patch: Partial<ComposeState>) => {
    compose.value = { ...compose.value!, ...patch } as ComposeState;
  };

  function typingTarget(): { streamId: number; topic: string } | { userIds: number[] } | null {
    const cur = compose.peek();
    if (!cur) return null;
    // The person's choice not to be seen typing (the server would refuse the notice).
    const settings = store.settings.user.peek();
    if (settings[cur.type === 'stream' ? 'send_stream_typing_notifications' : 'send_private_typing_notifications'] === false) return null;
    if (cur.type === 'stream') return cur.streamId === null ? null : { streamId: cur.streamId, topic: cur.topic };
    return cur.to.length ? { userIds: cur.to } : null;
  }

  function stopTyping() {
    clearTimeout(typingIdle.current);
    const t = typingTarget();
    if (typingSent.current && t) void client.typing('stop', t);
    typingSent.current = 0;
  }

  function noteTyping() {
    const t = typingTarget();
    if (!t) return;
    // The reference re-sends "start" every 10 s while typing, and "stop" after 5 s idle.
    if (Date.now() - typingSent.current > 10_000) {
      typingSent.current = Date.now();
      void client.typing('start', t);
    }
    clearTimeout(typingIdle.current);
    typingIdle.current = setTimeout(stopTyping, 5_000);
  }

  function scheduleDraft() {
    clearTimeout(draftTimer.current);
    draftTimer.current = setTimeout(() => void saveDraft(), 1_000);
  }

  async function saveDraft(cur = compose.peek()) {
    if (!cur) return;
    // Closed while its text is on its way (Enter, then Escape at once): no draft of a sent message.
    if (inFlight.current !== null && cur.content === inFlight.current) return;
    const to = cur.type === 'stream' ? (cur.streamId === null ? [] : [cur.streamId]) : cur.to;
    try {
      if (!cur.content.trim()) {
        if (cur.draftId !== undefined) {
          await client.deleteDraft(cur.draftId);
          if (compose.peek()) compose.value = { ...compose.peek()!, draftId: undefined };
        }
        return;
      }
      const id = await client.saveDraft({ id: cur.draftId, type: cur.type, to, topic: cur.type === 'stream' ? cur.topic : '', content: cur.content, timestamp: 0 });
      if (compose.peek() && compose.peek()!.draftId !== id) compose.value = { ...compose.peek()!, draftId: id };
    } catch {
      /* a draft is best effort: the text is still in the box */
    }
  }

  useEffect(
    () => () => {
      clearTimeout(draftTimer.current);
      stopTyping();
    },
    [],
  );

  function close() {
    sentNotice.value = null;
    clearTimeout(draftTimer.current);
    void saveDraft();
    stopTyping();
    compose.value = null;
  }

  /** What compose would send, or nothing after saying what is missing. */
  function outgoingOf(cur: ComposeState) {
    if (cur.type === 'stream') {
      if (cur.streamId === null) return void showToast('Choose a stream.', true);
      return { type: 'stream' as const, streamId: cur.streamId, topic: cur.topic, content: cur.content };
    }
    // Text left in the To field that names nobody (an exact name or email became a pill).
    const pending = toRef.current?.value.trim();
    if (pending) return void showToast(`Unknown recipient: ${pending}`, true);
    if (cur.to.length === 0) return void showToast('Add a recipient.', true);
    return { type: 'private' as const, to: cur.to, content: cur.content };
  }

  async function send() {
    const cur = compose.peek()!;
    // The rule is shown under the message box (the Send button is off); Enter does nothing either.
    if (!cur.content.trim() || sending || blocked) return;
    const outgoing = outgoingOf(cur);
    if (!outgoing) return;
    setSending(true);
    clearTimeout(draftTimer.current);
    inFlight.current = cur.content;
    try {
      const id = await client.send(outgoing);
      inFlight.current = null;
      stopTyping();
      const onScreen = currentView();
      const elsewhere = sentElsewhere(cur, id, onScreen);
      sentNotice.value = elsewhere && { label: sentToLabel(cur, elsewhere), narrow: elsewhere, view: view.peek() };
      // As in the reference, the selection moves to one's own new message when the view shows it.
      if (onScreen !== null && elsewhere === null) {
        selectWhenShown.value = id;
        // Sent from far back in a list that does not reach the present: the view goes there.
        const list = client.current;
        if (list && !list.foundNewest) client.jumpToPresent(list, id).catch((e) => showToast(`Could not load newer messages: ${errorText(e)}`, true));
      }
      if (cur.draftId !== undefined) void client.deleteDraft(cur.draftId);
      const now = compose.peek();
      if (now) compose.value = { ...now, content: '', draftId: undefined } as ComposeState;
      setPreview(null);
    } catch (e) {
      inFlight.current = null;
      showToast(`Message not sent: ${errorText(e)}`, true);
      // Compose was closed meanwhile: the text is kept as a draft rather than lost.
      if (!compose.peek()) void saveDraft(cur);
    }
    setSending(false);
    text.current?.focus();
  }

  /** Hands the message to the server to send at the chosen time; compose empties as after a send. */
  async function sendLater() {
    const cur = compose.peek()!;
    if (!cur.content.trim() || sending || blocked || later === null) return;
    const at = Math.floor(new Date(later).getTime() / 1000);
    if (!Number.isFinite(at) || at * 1000 <= Date.now()) return showToast('Choose a time in the future.', true);
    const outgoing = outgoingOf(cur);
    if (!outgoing) return;
    setSending(true);
    clearTimeout(draftTimer.current);
    try {
      await client.schedule(outgoing, at);
      stopTyping();
      if (cur.draftId !== undefined) void client.deleteDraft(cur.draftId);
      const now = compose.peek();
      if (now) compose.value = { ...now, content: '', draftId: undefined } as ComposeState;
      setPreview(null);
      setLater(null);
      const when = new Date(at * 1000).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
      showToast(`Scheduled for ${when}: see Scheduled messages.`);
    } catch (e) {
      showToast(`Message not scheduled: ${errorText(e)}`, true);
    }
    setSending(false);
    // Back to writing, as after a send: the row of times it was chosen in is gone.
    text.current?.focus();
  }

  function insert(s: string) {
    const el = text.current;
    const cur = compose.peek()!.content;
    const at = el ? el.selectionStart : cur.length;
    const before = cur.slice(0, at);
    const sep = before && !before.endsWith('\n') && !before.endsWith(' ') ? ' ' : '';
    update({ content: before + sep + s + cur.slice(at) });
    scheduleDraft();
    // Writing goes on after the link: from the file button the focus was left on it, so the
    // next keys went nowhere. Someone typing in the topic or To meanwhile keeps their place.
    const cursor = before.length + sep.length + s.length;
    requestAnimationFrame(() => {
      const box = text.current;
      const typing = document.activeElement instanceof HTMLInputElement && document.activeElement.type !== 'file';
      if (!box || typing) return;
      box.focus();
      box.setSelectionRange(cursor, cursor);
    });
  }

  async function upload(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const id = Math.random();
      setUploads((u) => [...u, { id, name: file.name, progress: 0 }]);
      try {
        const r = await client.upload(file, file.name || 'pasted-image.png', (p) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress: p } : x))));
        insert(`[${r.filename}](${r.url})`);
      } catch (e) {
        showToast(`Upload failed: ${errorText(e)}`, true);
      }
      setUploads((u) => u.filter((x) => x.id !== id));
    }
  }

  async function togglePreview() {
    if (preview !== null) return setPreview(null);
    try {
      setPreview(await client.render(compose.peek()!.content || ' '));
    } catch (e) {
      showToast(errorText(e), true);
    }
  }

  function pickMessage(ch: Choice) {
    const r = ch.apply();
    update({ content: r.text });
    suggestions.value = null;
    requestAnimationFrame(() => {
      const el = text.current;
      if (!el) return;
      el.setSelectionRange(r.cursor, r.cursor);
      // `#**stream**` goes on to its topics when `>` is typed; other picks are done.
      suggestions.value = messageSuggestions(el.value, r.cursor, compose.peek()?.type === 'stream' ? (compose.peek() as { streamId: number | null }).streamId : null);
    });
    scheduleDraft();
  }

  function pickTopic(ch: Choice) {
    update({ topic: ch.apply().text });
    scheduleDraft();
    suggestions.value = null;
  }

  function closeSuggestions(field: SuggestState['field']) {
    if (suggestions.peek()?.field === field) suggestions.value = null;
  }

  /** Keys in the Topic field: suggestions first; Enter moves on to the message. */
  function topicKey(e: KeyboardEvent) {
    if (suggestionKey(e, 'topic', pickTopic)) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      text.current?.focus();
    }
  }

  function onKeyDown(e: KeyboardEvent) {
    if (suggestionKey(e, 'message', pickMessage)) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
      return;
    }
    if (sendsMessage(e)) {
      e.preventDefault();
      void send();
    }
  }

  return (
    <section class={`compose ${dragging ? 'dragging' : ''}`} aria-label="Compose"
      onDragOver={(e) => {
        if (e.dataTransfer?.types.includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        if (e.dataTransfer?.files.length) {
          e.preventDefault();
          void upload(e.dataTransfer.files);
        }
      }}
    >
      <SentNotice />
      <form onSubmit={(e) => (e.preventDefault(), void send())} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), close())}>
        <div class="recipient-row">
          {c.type === 'stream' ? (
            <>
              <label class="field">
                <span>Stream</span>
                <select value={c.streamId ?? ''} onChange={(e) => update({ streamId: Number(e.currentTarget.value) })}>
                  {c.streamId === null && (
                    <option value="" disabled>
                      Choose a stream
                    </option>
                  )}
                  {subs.map((s) => (
                    <option key={s.stream_id} value={s.stream_id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </label>
              <label class="field grow">
                <span>Topic</span>
                <input
                  ref={topicRef}
                  value={c.topic}
                  maxLength={60}
                  autocomplete="off"
                  {...comboProps('topic')}
                  onInput={(e) => {
                    update({ topic: e.currentTarget.value });
                    suggestions.value = topicSuggestions(e.currentTarget.value, c.streamId);
                    scheduleDraft();
                  }}
                  onKeyDown={topicKey}
                  onBlur={() => closeSuggestions('topic')}
                />
                <SuggestionList field="topic" pick={pickTopic} />
              </label>
            </>
          ) : (
            <RecipientPills ids={c.to} onChange={(to) => update({ to })} inputRef={toRef} onDone={() => text.current?.focus()} />
          )}
          <button type="button" class="icon-button" aria-label="Close compose" title="Close (Esc)" onClick={close}>
            <CloseIcon />
          </button>
        </div>
        {preview !== null ? (
          <div class="preview rendered" aria-label="Preview" dangerouslySetInnerHTML={{ __html: preview }} />
        ) : (
          <textarea
            ref={text}
            aria-label="Message"
            placeholder={c.type !== 'stream' ? 'Direct message' : c.streamId === null ? 'Message (choose a stream first)' : `Message #${store.streams.name(c.streamId)}${c.topic ? ` > ${c.topic}` : ''}`}
            value={c.content}
            rows={3}
            {...comboProps('message')}
            onInput={(e) => {
              const el = e.currentTarget;
              update({ content: el.value });
              suggestions.value = messageSuggestions(el.value, el.selectionStart, c.type === 'stream' ? c.streamId : null);
              noteTyping();
              scheduleDraft();
            }}
            onKeyDown={onKeyDown}
            onBlur={() => closeSuggestions('message')}
            onPaste={(e) => {
              const files = e.clipboardData?.files;
              if (files && files.length) {
                e.preventDefault();
                void upload(files);
              }
            }}
          />
        )}
        <SuggestionList field="message" pick={pickMessage} />
        {uploads.map((u) => (
          <div class="upload" key={u.id}>
            <label>
              Uploading {u.name}… <progress value={u.progress} max={1} aria-label={`Uploading ${u.name}`} />
            </label>
          </div>
        ))}
        <p id="compose-blocked" class="compose-notice" role="status">
          {blocked}
        </p>
        <div class="compose-actions">
          <label class="file-button">
            <input type="file" multiple class="sr-only" aria-label="Attach files" onChange={(e) => {
              const files = e.currentTarget.files;
              if (files) void upload(files);
              e.currentTarget.value = '';
            }} />
            <ClipIcon />
          </label>
          <button type="button" onClick={() => void togglePreview()} aria-pressed={preview !== null}>
            {preview !== null ? 'Edit' : 'Preview'}
          </button>
          <label class="check">
            <input type="checkbox" checked={!enterNewlinePref.signal.value} onChange={(e) => enterNewlinePref.set(!e.currentTarget.checked)} /> Enter sends
          </label>
          <span class="spacer" />
          {c.draftId !== undefined && <span class="muted-text">Draft saved</span>}
          <button type="button" aria-expanded={later !== null} disabled={sending || blocked !== null} onClick={() => setLater(later === null ? inputValue(tomorrowAtNine()) : null)}>
            Send later
          </button>
          <button type="submit" class="primary" disabled={sending || blocked !== null} aria-describedby="compose-blocked">
            Send
          </button>
        </div>
        {later !== null && (
          <div class="compose-later" role="group" aria-label="Send later">
            {laterChoices().map(([label, at]) => (
              <button key={label} type="button" aria-pressed={later === inputValue(at)} onClick={() => setLater(inputValue(at))}>
                {label}
              </button>
            ))}
            <label>
              Send at <input type="datetime-local" value={later} min={inputValue(new Date())} onInput={(e) => setLater(e.currentTarget.value)} />
            </label>
            <button type="button" class="primary" disabled={sending || blocked !== null || !c.content.trim()} onClick={() => void sendLater()}>
              Schedule
            </button>
            <button type="button" onClick={() => setLater(null)}>
              Cancel
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
