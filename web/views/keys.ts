// The app's keyboard shortcuts: lib/keyboard.ts's table and dispatcher, with what each action
// does here. Keys act on the selected message.
import { client, store } from './context.ts';
import { compose, dialog, drawer, editingId, reactingId, previewToggle, selectedId, view, showToast, errorText } from './state.ts';
import { composeTarget, openCompose } from './Compose.tsx';
import { openComposeFor, quoteReply } from './Message.tsx';
import { go, goHome, homeHash, currentNarrow } from './nav.ts';
import { lowerBound } from './MessageView.tsx';
import { topicKey } from '../store/unread.ts';
import { editRefusal, ROLE } from '../store/permissions.ts';
import { createKeydownHandler } from '../lib/keyboard.ts';
import { escapeGoesHome } from '../lib/display.ts';
import { closeLightbox, openLightboxFor } from './Lightbox.tsx';

function move(to: (i: number, n: number) => number) {
  const list = client.current;
  if (!list || list.ids.length === 0) return;
  const sel = selectedId.value;
  const i = sel === null ? list.ids.length - 1 : lowerBound(list.ids, sel);
  const next = list.ids[Math.max(0, Math.min(list.ids.length - 1, to(i, list.ids.length)))];
  if (next !== undefined) selectedId.value = next;
}

function nextUnreadTopic() {
  const narrow = currentNarrow();
  const stream = Number(narrow.find((t) => t.operator === 'stream')?.operand ?? NaN);
  const topic = narrow.find((t) => t.operator === 'topic')?.operand;
  const here = topic === undefined ? '' : topicKey(stream, String(topic));
  const rules = store.streams.muteRules.value;
  const ids = store.unread.unreadIds((e) => e.kind === 'stream' && topicKey(e.streamId, e.topic) !== here && !rules.streamMuted(e.streamId) && rules.topicPolicy(e.streamId, e.topic) !== 'muted');
  const e = ids[0] === undefined ? undefined : store.unread.entries.get(ids[0]);
  if (e?.kind === 'stream') {
    go([
      { operator: 'stream', operand: e.streamId },
      { operator: 'topic', operand: e.topic },
    ]);
  } else showToast('No more unread topics.');
}

function scrollPage(dir: 1 | -1) {
  const el = document.querySelector<HTMLElement>('.scroller');
  el?.scrollBy({ top: dir * el.clientHeight * 0.9 });
}

/** The reaction `+` toggles, by the name and code the reference's apps give it. */
const THUMBS_UP = { name: 'thumbs_up', code: '1f44d', type: 'unicode_emoji' };

const selected = () => (selectedId.value === null ? undefined : store.messages.byId.get(selectedId.value));

export function installKeys(): () => void {
  const onKey = createKeydownHandler({
    select_next: () => move((i) => i + 1),
    select_previous: () => move((i) => i - 1),
    select_first: () => move(() => 0),
    select_last: () => move((_, n) => n - 1),
    page_up: () => scrollPage(-1),
    page_down: () => scrollPage(1),
    next_unread_topic: nextUnreadTopic,
    all_messages: () => go([]),
    inbox: () => void (location.hash = '#inbox'),
    recent: () => void (location.hash = '#recent'),
    direct_messages: () => go([{ operator: 'is', operand: 'dm' }]),
    search: () => document.getElementById('search')?.focus(),
    show_shortcuts: () => {
      dialog.value = dialog.value?.kind === 'shortcuts' ? null : { kind: 'shortcuts' };
    },
    compose: () => openCompose(composeTarget()),
    compose_dm: () => openCompose({ type: 'private', to: [], content: '' }, 'to'),
    reply: () => {
      const m = selected();
      if (m) openComposeFor(m);
      else openCompose(composeTarget());
    },
    quote_reply: () => {
      const m = selected();
      if (m) void quoteReply(m);
    },
    toggle_preview: () => {
      if (!compose.value) return false;
      previewToggle.value++;
    },
    edit: () => {
      const m = selected();
      if (!m) return false;
      // A message that cannot be edited says why (the key did nothing, as if not pressed).
      const refusal = editRefusal(m, { me: store.me, role: store.users.get(store.me)?.role ?? ROLE.MEMBER, realm: store.settings.realm.value, now: Date.now() / 1000 });
      if (refusal) showToast(refusal);
      else editingId.value = m.id;
    },
    star: () => {
      const m = selected();
      if (!m) return false;
      client.setFlag([m.id], 'starred', !m.flags.includes('starred')).catch((e) => showToast(errorText(e), true));
    },
    react: () => {
      const m = selected();
      if (!m) return false;
      reactingId.value = m.id;
    },
    thumbs_up: () => {
      const m = selected();
      if (!m) return false;
      client.toggleReaction(m, THUMBS_UP).catch((e) => showToast(errorText(e), true));
    },
    view_image: () => {
      const m = selected();
      if (!m || !openLightboxFor(m.id)) return false;
    },
    sender_profile: () => {
      const m = selected();
      if (!m) return false;
      dialog.value = { kind: 'user', userId: m.sender_id };
    },
    mark_unread: () => {
      const m = selected();
      if (!m) return false;
      client.markUnreadFrom(m.id).catch((e) => showToast(errorText(e), true));
    },
    escape: (e) => {
      const t = e.target as HTMLElement;
      if (closeLightbox()) return;
      if (dialog.value) dialog.value = null;
      else if (drawer.value) drawer.value = null;
      else if (editingId.value !== null) editingId.value = null;
      else if (compose.value) compose.value = null;
      else if (t.closest('input, textarea, select')) t.blur();
      else if (escapeGoesHome(store.settings.user.value) && location.hash && location.hash !== homeHash()) goHome();
      else if (view.value.kind === 'drafts' || view.value.kind === 'scheduled' || (view.value.kind === 'narrow' && currentNarrow().length)) go([]);
      else return false;
    },
  });
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
