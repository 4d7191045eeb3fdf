// Desktop notifications and sounds for new messages.
//
// Interface:
//   notificationDecision(message, ctx: NotifyContext) -> { desktop: boolean; sound: boolean }
//     pure: the reference's rules (DMs, personal and group mentions, alert words, wildcard mentions
//     per `wildcard_mentions_notify`, streams with notifications on, followed topics) over the
//     message's `flags`, the user's settings and the stream's subscription (`null` properties fall
//     back to the user settings). Never for: the tab visible (ctx.hidden false), one's own or
//     already-read messages, muted senders, muted streams and muted topics (a topic unmuted or
//     followed in a muted stream is not muted), streams one is not subscribed to.
//   notificationTitle(message, myUserId, streamName?) -> "Alice (#general > lunch)" | "Alice (to you)" | "Alice (to you and Bob, Carol)"
//   conversationTag(message) -> string   one notification per conversation replaces the previous one
//   DOM: notificationPermission() -> 'default' | 'granted' | 'denied' | 'unsupported'
//        requestNotificationPermission() -> Promise<permission>   call from a click handler only
//        unlockAudio()                      call from a user action; browsers keep audio muted until one
//        playNotificationSound(name?)       a short synthesized tone ('none' plays nothing)
//        notifyMessage(message, ctx, { streamName?, iconUrl?, onClick? }) -> decision   shows and/or plays
//          (the body is the message's text, or "New direct message from …" when
//          `pm_content_in_desktop_notifications` is off)

export interface NotifyRecipient {
  id: number;
  full_name: string;
}

export interface NotifyMessage {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  sender_full_name: string;
  stream_id?: number | undefined;
  subject?: string | undefined;
  flags: readonly string[];
  content?: string | undefined;
  display_recipient?: string | readonly NotifyRecipient[] | undefined;
}

/** A subset of the register's `user_settings`. */
export interface NotifySettings {
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
  enable_stream_desktop_notifications: boolean;
  enable_stream_audible_notifications: boolean;
  wildcard_mentions_notify: boolean;
  enable_followed_topic_desktop_notifications?: boolean | undefined;
  enable_followed_topic_audible_notifications?: boolean | undefined;
  enable_followed_topic_wildcard_mentions_notify?: boolean | undefined;
  notification_sound?: string | undefined;
  pm_content_in_desktop_notifications?: boolean | undefined;
}

/** A subscription's notification properties (null: follow the user setting). */
export interface NotifySubscription {
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  is_muted: boolean;
}

export const TOPIC_MUTED = 1;
export const TOPIC_UNMUTED = 2;
export const TOPIC_FOLLOWED = 3;

export interface NotifyContext {
  myUserId: number;
  /** `document.hidden` when the message arrived. */
  hidden: boolean;
  settings: NotifySettings;
  /** The subscription of a stream message's stream; absent when not subscribed. */
  subscription?: NotifySubscription | undefined;
  /** The topic's `visibility_policy` from `user_topics` (0 or absent: inherit). */
  topicPolicy?: number | undefined;
  senderMuted?: boolean | undefined;
}

export interface NotifyDecision {
  desktop: boolean;
  sound: boolean;
}

const NONE: NotifyDecision = { desktop: false, sound: false };
const WILDCARD_FLAGS = ['stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

export function notificationDecision(message: NotifyMessage, ctx: NotifyContext): NotifyDecision {
  if (!ctx.hidden || message.sender_id === ctx.myUserId || ctx.senderMuted) return NONE;
  if (message.flags.includes('read')) return NONE;
  const stream = message.type === 'stream';
  const sub = ctx.subscription;
  if (stream) {
    if (!sub || ctx.topicPolicy === TOPIC_MUTED) return NONE;
    if (sub.is_muted && ctx.topicPolicy !== TOPIC_UNMUTED && ctx.topicPolicy !== TOPIC_FOLLOWED) return NONE;
  }
  const s = ctx.settings;
  const followed = stream && ctx.topicPolicy === TOPIC_FOLLOWED;
  const personal = !stream || message.flags.includes('mentioned') || message.flags.includes('has_alert_word');
  const wildcard = stream && message.flags.some((f) => WILDCARD_FLAGS.includes(f));
  const wildcardNotifies = wildcard && ((sub?.wildcard_mentions_notify ?? s.wildcard_mentions_notify) || (followed && s.enable_followed_topic_wildcard_mentions_notify === true));

  const decide = (streamSetting: boolean | null | undefined, streamDefault: boolean, followedSetting: boolean | undefined, master: boolean): boolean => {
    if (stream && (streamSetting ?? streamDefault)) return true;
    if (followed && followedSetting === true) return true;
    if (!master) return false;
    return personal || wildcardNotifies;
  };
  return {
    desktop: decide(sub?.desktop_notifications, s.enable_stream_desktop_notifications, s.enable_followed_topic_desktop_notifications, s.enable_desktop_notifications),
    sound:
      s.notification_sound !== 'none' &&
      decide(sub?.audible_notifications, s.enable_stream_audible_notifications, s.enable_followed_topic_audible_notifications, s.enable_sounds),
  };
}

export function notificationTitle(message: NotifyMessage, myUserId: number, streamName?: string): string {
  if (message.type === 'stream') return `${message.sender_full_name} (#${streamName ?? 'unknown'} > ${message.subject ?? ''})`;
  const recipients = Array.isArray(message.display_recipient) ? (message.display_recipient as readonly NotifyRecipient[]) : [];
  const others = recipients.filter((r) => r.id !== message.sender_id && r.id !== myUserId).map((r) => r.full_name);
  return others.length === 0 ? `${message.sender_full_name} (to you)` : `${message.sender_full_name} (to you and ${others.join(', ')})`;
}

export function conversationTag(message: NotifyMessage): string {
  if (message.type === 'stream') return `stream:${message.stream_id ?? ''}:${(message.subject ?? '').toLowerCase()}`;
  const ids = Array.isArray(message.display_recipient) ? (message.display_recipient as readonly NotifyRecipient[]).map((r) => r.id) : [message.sender_id];
  return `dm:${[...ids].sort((a, b) => a - b).join(',')}`;
}

// ---- browser side ----

export type Permission = NotificationPermission | 'unsupported';

export function notificationPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Browsers only grant (and some only ask) from a user action: call this from a click handler. */
export async function requestNotificationPermission(): Promise<Permission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

let audio: AudioContext | undefined;

/** Creates or resumes the audio context; call from a user action so later sounds may play. */
export function unlockAudio(): void {
  if (typeof AudioContext === 'undefined') return;
  audio ??= new AudioContext();
  if (audio.state === 'suspended') void audio.resume();
}

// Each sound is a few short notes with a fast decay, made here: no sound file to ship. Every
// name of the API's `notification_sound` has notes of its own.
export const TONES: Readonly<Record<string, readonly number[]>> = {
  ding: [880, 1320],
  chime: [659.25, 987.77, 1318.5],
  zulip: [784, 1174.66],
  'zulip-ring': [784, 1174.66, 784, 1174.66],
  heart: [523.25, 659.25],
  ping: [1567.98],
  chirp: [1318.5, 1760, 2093],
  done: [587.33, 880],
  xylophone: [1046.5, 1318.5, 1567.98, 2093],
};

export function playNotificationSound(name = 'ding'): void {
  if (name === 'none' || typeof AudioContext === 'undefined') return;
  audio ??= new AudioContext();
  const ctx = audio;
  const freqs = TONES[name] ?? TONES.ding!;
  const start = ctx.currentTime + 0.01;
  freqs.forEach((freq, i) => {
    const t = start + i * 0.09;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.4);
  });
}

function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  // Spoilers stay hidden in a notification; an emoji span reads as its name.
  doc.querySelectorAll('.spoiler-content').forEach((el) => el.remove());
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function notifyMessage(
  message: NotifyMessage,
  ctx: NotifyContext,
  opts: { streamName?: string | undefined; iconUrl?: string | undefined; onClick?: () => void } = {},
): NotifyDecision {
  const decision = notificationDecision(message, ctx);
  if (decision.desktop && notificationPermission() === 'granted') {
    const body =
      message.type === 'private' && ctx.settings.pm_content_in_desktop_notifications === false
        ? `New direct message from ${message.sender_full_name}`
        : htmlToText(message.content ?? '') || '(attached file)';
    const options: NotificationOptions = { body: body.slice(0, 300), tag: conversationTag(message) };
    if (opts.iconUrl) options.icon = opts.iconUrl;
    const n = new Notification(notificationTitle(message, ctx.myUserId, opts.streamName), options);
    n.addEventListener('click', () => {
      n.close();
      window.focus();
      opts.onClick?.();
    });
  }
  if (decision.sound) playNotificationSound(ctx.settings.notification_sound);
  return decision;
}
