// Desktop notifications and sounds for new messages while the tab is hidden, by the rules of
// lib/notify.ts over the store's settings, subscriptions and topic policies.
import { store, client } from './context.ts';
import { go } from './nav.ts';
import { conversationNarrow } from './Message.tsx';
import { notifyMessage, requestNotificationPermission, unlockAudio, type NotifySettings } from '../lib/notify.ts';
import { topicKey } from '../store/unread.ts';

/** Asked from a click (browsers refuse a permission prompt without one). */
export async function askNotificationPermission(): Promise<void> {
  unlockAudio();
  await requestNotificationPermission();
}

export async function setSound(on: boolean): Promise<void> {
  unlockAudio();
  await client.api.patch('/settings', { enable_sounds: on });
}

export function installAlerts(): () => void {
  // Browsers keep audio muted until the page has seen a user action.
  const unlock = () => unlockAudio();
  document.addEventListener('pointerdown', unlock, { once: true });
  document.addEventListener('keydown', unlock, { once: true });
  store.onMessage = (m) => {
    const sub = m.type === 'stream' ? store.streams.subs.value.get(m.stream_id!) : undefined;
    const policy = m.type === 'stream' ? store.streams.userTopics.value.get(topicKey(m.stream_id!, m.subject)) : undefined;
    notifyMessage(
      m,
      {
        myUserId: store.me,
        hidden: document.hidden,
        settings: store.settings.user.value as unknown as NotifySettings,
        subscription: sub && {
          desktop_notifications: sub.desktop_notifications ?? null,
          audible_notifications: sub.audible_notifications ?? null,
          wildcard_mentions_notify: (sub as { wildcard_mentions_notify?: boolean | null }).wildcard_mentions_notify ?? null,
          is_muted: sub.is_muted,
        },
        topicPolicy: policy,
      },
      { streamName: store.streams.name(m.stream_id), onClick: () => go([...conversationNarrow(m), { operator: 'near', operand: m.id }]) },
    );
  };
  return () => {
    store.onMessage = null;
    document.removeEventListener('pointerdown', unlock);
    document.removeEventListener('keydown', unlock);
  };
}
