// One message as an `article` named by its sender, with recipient bars and date separators
// between conversations and days.
import { memo } from 'preact/compat';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, store } from './context.ts';
import { compose, composeFocus, dialog, editingId, reactingId, selectedId, sendsMessage, showToast, errorText } from './state.ts';
import { hashFor } from './nav.ts';
import { Avatar } from './Header.tsx';
import { useAutoGrow } from './autogrow.ts';
import { Menu } from './Menu.tsx';
import { DotsIcon, SmileIcon } from './icons.tsx';
import { EmojiPicker, ReactionEmoji } from './EmojiPicker.tsx';
import { hasWidget, Widget } from './widgets/Widget.tsx';
import { SuggestionList, comboProps, messageSuggestions, suggestionKey, suggestions, type Choice } from './Suggestions.tsx';
import { labelPreviews, lightboxClick } from './Lightbox.tsx';
import type { RealmEmoji } from '../lib/emoji-data.ts';
import { dateSeparator, formatTime, fullTimestamp, resolveLocale } from '../lib/time.ts';
import { dmKey, dmUserIds, editMark, filedTopic, isMentioned } from '../store/match.ts';
import { canDelete, canEdit, canMoveTopic, isNewMember, ROLE } from '../store/permissions.ts';
import type { Message, Narrow } from '../store/types.ts';
import { showReactionNames, textEmoji } from '../lib/display.ts';

export function conversationKey(m: Message): string {
  return m.type === 'stream' ? `s${m.stream_id}:${m.subject.toLowerCase()}` : `d${dmKey(dmUserIds(m), store.me)}`;
}

function streamNarrow(streamId: number, topic: string): Narrow {
  return [
    { operator: 'stream', operand: streamId },
    { operator: 'topic', operand: topic },
  ];
}

/** A DM conversation by all its people: the others, or oneself alone (notes to self). */
function dmNarrow(userIds: readonly number[]): Narrow {
  const others = userIds.filter((id) => id !== store.me);
  return [{ operator: 'dm', operand: others.length ? others : [store.me] }];
}

export function conversationNarrow(m: Message): Narrow {
  return m.type === 'stream' ? streamNarrow(m.stream_id!, m.subject) : dmNarrow(dmUserIds(m));
}

export const locale = () => resolveLocale(String(store.settings.user.value.default_language ?? navigator.language));

export function DateSeparator({ ts }: { ts: number }) {
  const text = dateSeparator(ts, Date.now() / 1000, { locale: locale() });
  return (
    <div class="date-separator" role="separator" aria-label={text}>
      <span>{text}</span>
    </div>
  );
}

/** Where a message goes: a stream's topic (as the feed shows it, `topicHtml` a search's highlights) or the people of a DM. */
export type Recipient = { type: 'stream'; streamId: number; topic: string; topicHtml?: string | undefined } | { type: 'private'; userIds: number[] };

/** A recipient as its bar reads: "#design › logo", "You and Bob", "You (note to self)". */
export function recipientLabel(r: Recipient): string {
  if (r.type === 'stream') return `#${store.streams.name(r.streamId)} › ${r.topic}`;
  const others = r.userIds.filter((id) => id !== store.me);
  return others.length ? `You and ${others.map((id) => store.users.name(id)).join(', ')}` : 'You (note to self)';
}

/** The bar above a conversation's messages, in its stream's colour; also over drafts and scheduled messages. */
export function ConversationBar({ to }: { to: Recipient }) {
  if (to.type === 'stream') {
    const sub = store.streams.subs.value.get(to.streamId);
    return (
      <div class="recipient-bar" style={{ '--stream-color': sub?.color ?? '#c2c2c2' }}>
        <a href={hashFor([{ operator: 'stream', operand: to.streamId }])} class="rb-stream">
          #{store.streams.name(to.streamId)}
        </a>
        <span aria-hidden="true"> › </span>
        <a href={hashFor(streamNarrow(to.streamId, to.topic))} class="rb-topic">
          {to.topicHtml ? <span dangerouslySetInnerHTML={{ __html: to.topicHtml }} /> : to.topic}
        </a>
      </div>
    );
  }
  return (
    <div class="recipient-bar dm">
      <a href={hashFor(dmNarrow(to.userIds))}>{recipientLabel(to)}</a>
    </div>
  );
}

export function RecipientBar({ m }: { m: Message }) {
  return <ConversationBar to={m.type === 'stream' ? { type: 'stream', streamId: m.stream_id!, topic: filedTopic(m.subject), topicHtml: m.match_subject } : { type: 'private', userIds: dmUserIds(m) }} />;
}

/**
 * Emoji come as `<span class="emoji emoji-1f600">:name:</span>`: show the character itself, or
 * the `:name:` text with the "Plain text" emoji set. Tables go in a box that scrolls.
 */
function decorate(el: HTMLElement, asText: boolean): void {
  for (const span of el.querySelectorAll<HTMLElement>('span.emoji')) {
    const code = /emoji-([0-9a-f-]+)/.exec(span.className)?.[1];
    if (!code) continue;
    span.dataset.name ??= span.textContent ?? '';
    try {
      span.textContent = asText ? span.dataset.name : String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
    } catch {
      span.textContent = span.dataset.name;
    }
  }
  // Mentions that reach you stand out: of you, and of a group you are in.
  for (const mention of el.querySelectorAll<HTMLElement>('.user-mention[data-user-id]')) {
    if (Number(mention.dataset.userId) === store.me) mention.classList.add('user-mention-me');
  }
  for (const mention of el.querySelectorAll<HTMLElement>('.user-group-mention[data-user-group-id]')) {
    mention.classList.toggle('user-mention-me', store.admin.inGroup(Number(mention.dataset.userGroupId), store.me));
  }
  // A table wider than the message scrolls sideways in a box of its own (the keys scroll it once
  // it has the focus), rather than breaking its words letter by letter to fit.
  for (const table of el.querySelectorAll('table')) {
    if (table.parentElement?.classList.contains('table-scroll')) continue;
    const box = document.createElement('div');
    box.className = 'table-scroll';
    box.tabIndex = 0;
    table.replaceWith(box);
    box.append(table);
  }
  labelPreviews(el);
  if (el.querySelector('.katex')) void import('katex/dist/katex.min.css');
}

function onContentClick(e: MouseEvent) {
  if (lightboxClick(e)) return;
  const header = (e.target as HTMLElement).closest('.spoiler-header');
  if (header) {
    const block = header.parentElement!;
    block.classList.toggle('spoiler-open');
    block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!block.classList.contains('spoiler-open')));
  }
}

function Content({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const asText = textEmoji(store.settings.user.value);
  // Joining or leaving a group changes which of its mentions are yours.
  const groups = store.admin.groups.value;
  useLayoutEffect(() => {
    if (ref.current) decorate(ref.current, asText);
  }, [html, asText, groups]);
  return <div class="content rendered" ref={ref} onClick={onContentClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

function MutedContent({ onShow }: { onShow: () => void }) {
  return (
    <p class="content muted-content">
      <span>Hidden: you muted the sender.</span>{' '}
      <button type="button" class="link-button" onClick={(e) => (e.stopPropagation(), onShow())}>
        Show message
      </button>
    </p>
  );
}

export const MessageRow = memo(function MessageRow({ m, grouped, selected, unread, twentyFour }: { m: Message; grouped: boolean; selected: boolean; unread: boolean; twentyFour: boolean }) {
  // Popups are placed against the viewport, so the list's scrolling box never clips them.
  const [menu, setMenu] = useState<Placement | null>(null);
  const [picker, setPicker] = useState<Placement | null>(null);
  // A muted sender's message stays hidden until the person asks to see it (your own never are).
  const [shown, setShown] = useState(false);
  const hidden = !shown && m.sender_id !== store.me && store.admin.isMuted(m.sender_id);
  const starred = m.flags.includes('starred');
  const mark = editMark(m);
  const editing = editingId.value === m.id;
  const reacting = reactingId.value === m.id;
  const closePicker = () => {
    setPicker(null);
    if (reactingId.peek() === m.id) reactingId.value = null;
    document.querySelector<HTMLElement>(`article[data-id="${m.id}"] button[aria-label="Add reaction"]`)?.focus();
  };
  const time = formatTime(m.timestamp, { twentyFourHour: twentyFour, locale: locale() });
  const full = fullTimestamp(m.timestamp, { twentyFourHour: twentyFour, locale: locale() });
  const me = store.users.get(store.me);
  const now = Date.now() / 1000;
  const realm = store.settings.realm.value;
  const rules = { me: store.me, role: me?.role ?? ROLE.MEMBER, newMember: isNewMember(me, realm.waiting_period_threshold, now), realm, now };

  return (
    <article
      class={`message ${grouped ? 'grouped' : ''} ${selected ? 'selected' : ''} ${unread ? 'unread' : ''} ${isMentioned(m.flags) ? 'mentioned' : ''} ${editing ? 'editing' : ''}`}
      data-id={m.id}
      data-unread={unread ? '' : undefined}
      aria-labelledby={`m${m.id}-sender m${m.id}-time`}
      onClick={() => (selectedId.value = m.id)}
    >
      <div class="gutter">
        {/* The name beside it is the same control for the keyboard and screen readers. */}
        {!grouped && (
          <button type="button" class="avatar-button" tabIndex={-1} aria-hidden="true" onClick={(e) => (e.stopPropagation(), showProfile(m.sender_id))}>
            <Avatar userId={m.sender_id} url={m.avatar_url} />
          </button>
        )}
        {/* A message under the one before it has its sender line for screen readers only: the mark shows here. */}
        {grouped && mark && (
          <span class="edited" aria-hidden="true">
            ({mark})
          </span>
        )}
      </div>
      <div class="body">
        <div class={`meta ${grouped ? 'sr-only' : ''}`}>
          <button type="button" class="sender" id={`m${m.id}-sender`} aria-haspopup="dialog" onClick={(e) => (e.stopPropagation(), showProfile(m.sender_id))}>
            {m.sender_full_name}
          </button>
          {mark && <span class="edited">({mark})</span>}
        </div>
        <a class="time" id={`m${m.id}-time`} href={hashFor([...conversationNarrow(m), { operator: 'near', operand: m.id }])} title={full}>
          {time}
        </a>
        {starred && <span class="star" role="img" aria-label="Starred">★</span>}
        {editing ? <EditForm m={m} /> : hidden ? <MutedContent onShow={() => setShown(true)} /> : hasWidget(m) ? <Widget m={m} /> : <Content html={m.match_content ?? m.content} />}
        <Reactions m={m} onAdd={(e) => setPicker(place(e))} />
      </div>
      <div class="actions">
        <button type="button" class="icon-button" aria-label="Add reaction" title="Add reaction" onClick={(e) => (e.stopPropagation(), setPicker(picker ? null : place(e)))}>
          <SmileIcon />
        </button>
        <button type="button" class="icon-button" aria-label="Message actions" title="Message actions" aria-haspopup="menu" aria-expanded={menu !== null} onClick={(e) => (e.stopPropagation(), setMenu(menu ? null : place(e)))}>
          <DotsIcon />
        </button>
        {(picker || reacting) && (
          <div class="popup" style={picker ?? placeNear(m.id)} onClick={(e) => e.stopPropagation()}>
            <EmojiPicker
              label="Add reaction"
              realmEmoji={realmEmoji()}
              onClose={closePicker}
              onSelect={(r) => {
                closePicker();
                client.toggleReaction(m, { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type }).catch((e) => showToast(errorText(e), true));
              }}
            />
          </div>
        )}
        {menu && (
          <div class="popup" style={menu}>
          <Menu
            label="Message actions"
            onClose={() => setMenu(null)}
            items={[
              { label: 'Quote and reply', action: () => quoteReply(m) },
              canEdit(m, rules) ? { label: 'Edit message', action: () => (editingId.value = m.id) } : null,
              canMoveTopic(m, rules) ? { label: 'Move topic', action: () => (dialog.value = { kind: 'move', messageId: m.id }) } : null,
              { label: starred ? 'Unstar message' : 'Star message', action: () => client.setFlag([m.id], 'starred', !starred).catch((e) => showToast(errorText(e), true)) },
              { label: 'Mark as unread', action: () => client.markUnreadFrom(m.id).catch((e) => showToast(errorText(e), true)) },
              { label: 'Copy link to message', action: () => copyLink(m) },
              m.last_edit_timestamp ? { label: 'View edit history', action: () => (dialog.value = { kind: 'history', messageId: m.id }) } : null,
              canDelete(m, rules) ? { label: 'Delete message', action: () => (dialog.value = { kind: 'delete', messageId: m.id }) } : null,
            ]}
          />
          </div>
        )}
      </div>
    </article>
  );
});

const showProfile = (userId: number) => (dialog.value = { kind: 'user', userId });

type Placement = Record<string, string>;

/**
 * Where a popup opens for the button clicked: below it, or above when near the bottom; its right
 * edge at the button's, and no wider than the room left of that (on a phone the emoji picker
 * went 2 px past the screen's left edge).
 */
function place(e: MouseEvent): Placement {
  const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
  const offset = Math.max(4, window.innerWidth - r.right);
  const right = `${offset}px`;
  const maxWidth = `${window.innerWidth - offset - 4}px`;
  return r.bottom > window.innerHeight * 0.55 ? { right, maxWidth, bottom: `${window.innerHeight - r.top + 4}px` } : { right, maxWidth, top: `${r.bottom + 4}px` };
}

function Reactions({ m, onAdd }: { m: Message; onAdd: (e: MouseEvent) => void }) {
  if (m.reactions.length === 0) return null;
  const groups = new Map<string, { name: string; code: string; type: string; users: number[] }>();
  for (const r of m.reactions) {
    const k = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(k) ?? { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, users: [] };
    g.users.push(r.user_id);
    groups.set(k, g);
  }
  const settings = store.settings.user.value;
  const names = showReactionNames(settings, m.reactions.length);
  return (
    <div class="reactions">
      {[...groups.values()].map((g) => {
        const mine = g.users.includes(store.me);
        const who = g.users.map((id) => (id === store.me ? 'You' : store.users.name(id))).join(', ');
        const glyph =
          textEmoji(settings) && g.type === 'unicode_emoji' ? (
            <span aria-hidden="true">:{g.name}:</span>
          ) : (
            <ReactionEmoji reaction={{ emoji_name: g.name, emoji_code: g.code, reaction_type: g.type }} realmEmoji={realmEmoji()} decorative />
          );
        return (
          <button
            type="button"
            key={g.code}
            class={`reaction ${mine ? 'mine' : ''}`}
            aria-pressed={mine}
            aria-label={`${g.name.replace(/_/g, ' ')}: ${g.users.length}`}
            title={`${who} reacted with :${g.name}:`}
            onClick={(e) => {
              e.stopPropagation();
              client.toggleReaction(m, g).catch((err) => showToast(errorText(err), true));
            }}
          >
            {glyph} {names ? who : g.users.length}
          </button>
        );
      })}
      <button type="button" class="reaction add" aria-label="Add another reaction" onClick={(e) => (e.stopPropagation(), onAdd(e))}>
        +
      </button>
    </div>
  );
}

const realmEmoji = () => (store.settings.realm.value.emoji ?? {}) as Record<string, RealmEmoji>;

/** A popup for the keyboard (no click to place it by): next to the message's actions. */
function placeNear(id: number): Placement {
  const button = document.querySelector(`article[data-id="${id}"] button[aria-label="Add reaction"]`);
  if (!button) return { right: '16px', top: '80px' };
  return place({ currentTarget: button } as unknown as MouseEvent);
}

/** About the height of a full list of suggestions (8 rows). */
const SUGGESTIONS_HEIGHT = 260;

/**
 * Closes the edit box with its message selected and the focus on it, in the message list (it
 * fell to the page's body), so arrows and shortcuts go on from there.
 */
function endEdit(id: number): void {
  const at = document.activeElement;
  const inForm = !at || at === document.body || at.closest('.edit-form') !== null;
  editingId.value = null;
  selectedId.value = id;
  if (!inForm) return;
  requestAnimationFrame(() => {
    const a = document.querySelector<HTMLElement>(`article[data-id="${id}"]`);
    if (!a || (document.activeElement && document.activeElement !== document.body)) return;
    a.tabIndex = -1;
    a.focus({ preventScroll: true });
  });
}

/** Above an edit box or below its form, whichever has room for the suggestions (or more of it), and how much. */
function suggestionPlace(box: HTMLElement): { below: boolean; room: number } {
  const scroller = box.closest('.scroller');
  const form = box.closest('form');
  if (!scroller || !form) return { below: false, room: SUGGESTIONS_HEIGHT };
  const view = scroller.getBoundingClientRect();
  const above = box.getBoundingClientRect().top - view.top - 6;
  const below = view.bottom - form.getBoundingClientRect().bottom - 6;
  const goBelow = above < SUGGESTIONS_HEIGHT && below > above;
  return { below: goBelow, room: Math.max(96, Math.floor(goBelow ? below : above)) };
}

function EditForm({ m }: { m: Message }) {
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  /**
   * Where the suggestions open: above the box, or below its Save and Cancel (never over them)
   * when the list has more room there (the view's first message); at most as tall as that room.
   */
  const [place, setPlace] = useState<{ below: boolean; room: number }>({ below: false, room: SUGGESTIONS_HEIGHT });
  useLayoutEffect(() => {
    client
      .rawContent(m.id)
      .then((c) => setText(c))
      .catch((e) => {
        showToast(errorText(e), true);
        editingId.value = null;
      });
  }, [m.id]);
  useLayoutEffect(() => {
    if (text !== null && ref.current && document.activeElement !== ref.current) {
      ref.current.focus();
      ref.current.setSelectionRange(text.length, text.length);
    }
  }, [text === null]);
  // As tall as the text, wrapped lines too (a long one-line message showed two lines of it), up to a point.
  useAutoGrow(ref, [text]);
  async function save() {
    if (text === null) return;
    setBusy(true);
    try {
      await client.edit(m.id, text);
      endEdit(m.id);
    } catch (e) {
      showToast(`Could not save: ${errorText(e)}`, true);
    }
    setBusy(false);
  }
  // The same suggestions as compose's: @-mentions, #streams and topics, :emoji:.
  const streamId = m.type === 'stream' ? (m.stream_id ?? null) : null;
  function pick(ch: Choice) {
    const r = ch.apply();
    setText(r.text);
    suggestions.value = null;
    requestAnimationFrame(() => {
      const el = ref.current;
      if (!el) return;
      el.setSelectionRange(r.cursor, r.cursor);
      // `#**stream**` goes on to its topics when `>` is typed; other picks are done.
      suggestions.value = messageSuggestions(el.value, r.cursor, streamId, 'edit');
    });
  }
  if (text === null) return <p class="muted-text">Loading…</p>;
  return (
    <form
      class={`edit-form ${place.below ? 'suggest-below' : ''}`}
      style={{ '--suggest-room': `${place.room}px` }}
      onSubmit={(e) => (e.preventDefault(), void save())}
      onKeyDown={(e) => {
        if (suggestionKey(e, 'edit', pick)) return;
        if (e.key === 'Escape') {
          e.stopPropagation();
          endEdit(m.id);
        }
        // As in compose: Enter saves, or makes a new line with "Enter sends" off; in the box only
        // (Enter on Cancel saved the edit).
        if (e.target === ref.current && sendsMessage(e)) {
          e.preventDefault();
          void save();
        }
      }}
    >
      <div class="edit-field">
        <textarea
          ref={ref}
          aria-label="Edit message content"
          value={text}
          rows={2}
          {...comboProps('edit')}
          onInput={(e) => {
            const el = e.currentTarget;
            setText(el.value);
            suggestions.value = messageSuggestions(el.value, el.selectionStart, streamId, 'edit');
            setPlace(suggestionPlace(el));
          }}
          onBlur={() => suggestions.peek()?.field === 'edit' && (suggestions.value = null)}
        />
        <SuggestionList field="edit" pick={pick} />
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          Save
        </button>
        <button type="button" onClick={() => endEdit(m.id)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export async function quoteReply(m: Message) {
  let raw = '';
  try {
    raw = await client.rawContent(m.id);
  } catch (e) {
    showToast(errorText(e), true);
    return;
  }
  const link = `${location.origin}/${hashFor([...conversationNarrow(m), { operator: 'near', operand: m.id }])}`;
  const quote = `@_**${m.sender_full_name}|${m.sender_id}** [said](${link}):\n\`\`\`quote\n${raw}\n\`\`\`\n`;
  openComposeFor(m, quote);
}

export function openComposeFor(m: Message, prefill = ''): void {
  const c = compose.value;
  const content = (c?.content ? c.content + '\n' : '') + prefill;
  if (m.type === 'stream') compose.value = { type: 'stream', streamId: m.stream_id!, topic: m.subject, content };
  else {
    const others = dmUserIds(m).filter((id) => id !== store.me);
    compose.value = { type: 'private', to: others.length ? others : [store.me], content };
  }
  composeFocus.value = 'message';
}

async function copyLink(m: Message) {
  const url = `${location.origin}/${hashFor([...conversationNarrow(m), { operator: 'near', operand: m.id }])}`;
  try {
    await navigator.clipboard.writeText(url);
    showToast('Link copied.');
  } catch {
    showToast(url);
  }
}
