// The client's state: one store per kind of thing, filled from the register snapshot and then
// changed only by events. Each event type has its own apply below (as the server's
// src/events/event-types/* do), not one switch that knows everything.
import { batch, signal } from '@preact/signals';
import { MessageStore } from './messages.ts';
import { DraftStore, ScheduledStore, SettingsStore, TypingStore } from './misc.ts';
import { dmKey, dmUserIds } from './match.ts';
import { StreamStore } from './streams.ts';
import type { Message, Reaction } from './types.ts';
import type { Submessage } from '../lib/widgets.ts';
import { UnreadStore, type UnreadSnapshot } from './unread.ts';
import { UserStore } from './users.ts';
import { AdminStore } from './settings-admin.ts';

export type Event = Record<string, unknown> & { type: string };

/** A topic moved from here on or as a whole (the reference's propagate modes change_later and change_all). */
export interface TopicMove {
  fromStream: number;
  fromTopic: string;
  toStream: number;
  toTopic: string;
  /** All of the topic moved (change_all), or the messages from one on (change_later). */
  whole: boolean;
  messageIds: number[];
}

export interface RecentDm {
  key: string;
  userIds: number[];
  maxId: number;
}

export class Store {
  readonly settings = new SettingsStore();
  readonly users = new UserStore();
  readonly streams = new StreamStore(() => this.me);
  readonly messages = new MessageStore(
    () => this.me,
    () => this.settings.realm.value.allow_edit_history !== false,
  );
  readonly unread = new UnreadStore(() => this.me, { rules: this.streams.muteRules });
  readonly typing = new TypingStore();
  readonly drafts = new DraftStore();
  readonly scheduled = new ScheduledStore();
  /** Emoji, linkifiers, profile fields, groups, bots, default streams, muted users, statuses. */
  readonly admin = new AdminStore();
  readonly starred = signal<Set<number>>(new Set());
  readonly recentDms = signal<RecentDm[]>([]);
  /** Called for every message event after it is applied (notifications hook in here). */
  onMessage: ((m: Message) => void) | null = null;
  /** Called after a topic moved on (the view and compose follow it). */
  onTopicMoved: ((move: TopicMove) => void) | null = null;
  /** Called when your own account was deactivated (the app leaves for the login page, saying why). */
  onDeactivated: (() => void) | null = null;

  get me(): number {
    return this.settings.me.value.user_id;
  }

  load(state: Record<string, unknown>): void {
    batch(() => {
      this.settings.load(state);
      this.users.load(state);
      this.streams.load(state);
      this.unread.load((state.unread_msgs ?? { streams: [], pms: [], huddles: [], mentions: [] }) as UnreadSnapshot);
      this.drafts.load(state);
      this.scheduled.load(state);
      this.admin.load(state);
      this.starred.value = new Set((state.starred_messages ?? []) as number[]);
      this.recentDms.value = ((state.recent_private_conversations ?? []) as { user_ids: number[]; max_message_id: number }[]).map((c) => ({
        key: dmKey(c.user_ids, this.me),
        userIds: c.user_ids,
        maxId: c.max_message_id,
      }));
      for (const b of (state.unread_msgs as UnreadSnapshot | undefined)?.streams ?? []) {
        this.streams.noteMessage(b.stream_id, b.topic, Math.max(...b.unread_message_ids));
      }
    });
  }

  /** Messages from a fetch: stored, their read state noted, their topics known. */
  addFetched(messages: Message[]): void {
    batch(() => {
      this.messages.put(messages);
      this.unread.applyMessages(messages);
      for (const m of messages) if (m.type === 'stream') this.streams.noteMessage(m.stream_id!, m.subject, m.id);
    });
  }

  apply(events: Event[]): void {
    batch(() => {
      for (const e of events) {
        const fn = APPLIES[e.type];
        if (fn) fn(this, e);
      }
    });
  }

  noteRecentDm(m: Message): void {
    const userIds = dmUserIds(m).filter((id) => id !== this.me);
    const key = dmKey(userIds, this.me);
    const rest = this.recentDms.value.filter((c) => c.key !== key);
    this.recentDms.value = [{ key, userIds, maxId: m.id }, ...rest].sort((a, b) => b.maxId - a.maxId);
  }
}

const APPLIES: Record<string, (s: Store, e: Event) => void> = {
  message(s, e) {
    const m = { ...(e.message as Message), flags: (e.flags ?? []) as string[] };
    s.messages.applyMessage(m);
    s.unread.applyMessages([m]);
    if (m.type === 'stream') {
      s.streams.noteMessage(m.stream_id!, m.subject, m.id);
      s.typing.stop(TypingStore.streamKey(m.stream_id!, m.subject), m.sender_id);
    } else {
      s.noteRecentDm(m);
      s.typing.stop(TypingStore.dmKey(dmUserIds(m), s.me), m.sender_id);
    }
    s.onMessage?.(m);
  },
  update_message(s, e) {
    s.messages.applyUpdate(e);
    const ids = (e.message_ids as number[] | undefined) ?? [];
    if (typeof e.message_id === 'number' && Array.isArray(e.flags)) s.unread.applyMention(e.message_id, e.flags as string[]);
    if (typeof e.subject === 'string' || typeof e.new_stream_id === 'number') {
      const newTopic = typeof e.subject === 'string' ? e.subject : undefined;
      const newStream = typeof e.new_stream_id === 'number' ? e.new_stream_id : undefined;
      s.unread.applyMove(ids, newStream, newTopic);
      if (typeof e.stream_id === 'number' && ids.length) {
        const whole = e.propagate_mode === 'change_all';
        const move = { fromStream: e.stream_id, fromTopic: String(e.orig_subject ?? ''), toStream: newStream ?? e.stream_id, toTopic: newTopic ?? String(e.orig_subject ?? ''), whole, messageIds: ids };
        s.streams.applyMoveTopic(move.fromStream, move.toStream, move.fromTopic, move.toTopic, Math.max(...ids), whole);
        if (e.propagate_mode === 'change_all' || e.propagate_mode === 'change_later') s.onTopicMoved?.(move);
      }
    }
  },
  delete_message(s, e) {
    const ids = Array.isArray(e.message_ids) ? (e.message_ids as number[]) : [e.message_id as number];
    s.messages.applyDelete(ids);
    s.unread.applyRead(ids);
    const starred = new Set(s.starred.value);
    for (const id of ids) starred.delete(id);
    s.starred.value = starred;
  },
  update_message_flags(s, e) {
    const op = e.op as 'add' | 'remove';
    const flag = String(e.flag);
    const ids = (e.messages ?? []) as number[];
    s.messages.applyFlags(op, flag, ids);
    if (flag === 'read') {
      if (op === 'add') s.unread.applyRead(ids);
      else if (e.message_details) s.unread.applyUnread(e.message_details as Parameters<UnreadStore['applyUnread']>[0]);
    }
    if (flag === 'starred') {
      const starred = new Set(s.starred.value);
      for (const id of ids) {
        if (op === 'add') starred.add(id);
        else starred.delete(id);
      }
      s.starred.value = starred;
    }
  },
  reaction(s, e) {
    s.messages.applyReaction(e.op as 'add' | 'remove', e.message_id as number, {
      emoji_name: String(e.emoji_name),
      emoji_code: String(e.emoji_code),
      reaction_type: String(e.reaction_type),
      user_id: (e.user_id ?? (e.user as { user_id: number } | undefined)?.user_id) as number,
    } satisfies Reaction);
  },
  submessage(s, e) {
    s.messages.applySubmessage(e.message_id as number, {
      id: e.submessage_id as number,
      sender_id: e.sender_id as number,
      msg_type: String(e.msg_type),
      content: String(e.content),
    } satisfies Submessage);
  },
  typing(s, e) {
    s.typing.apply(e, s.me);
  },
  presence(s, e) {
    s.users.applyPresence(e);
  },
  realm_user(s, e) {
    s.users.applyRealmUser(e);
    s.admin.applyRealmUser(e);
    if (e.op === 'remove' && (e.person as { user_id?: number } | undefined)?.user_id === s.me) s.onDeactivated?.();
  },
  subscription(s, e) {
    s.streams.applySubscription(e);
    if (e.op !== 'update') s.admin.subscribersVersion.value++;
  },
  stream(s, e) {
    s.streams.applyStream(e);
  },
  user_topic(s, e) {
    s.streams.applyUserTopic(e);
  },
  drafts(s, e) {
    s.drafts.apply(e);
  },
  scheduled_messages(s, e) {
    s.scheduled.apply(e);
  },
  user_settings(s, e) {
    s.settings.applyUserSettings(e);
  },
  realm(s, e) {
    s.settings.applyRealm(e);
  },
  user_group(s, e) {
    s.settings.applyUserGroup(e);
    s.admin.applyUserGroup(e);
  },
  alert_words(s, e) {
    s.settings.applyAlertWords(e);
  },
  realm_emoji(s, e) {
    s.admin.applyRealmEmoji(e);
  },
  realm_linkifiers(s, e) {
    s.admin.applyLinkifiers(e);
  },
  custom_profile_fields(s, e) {
    s.admin.applyProfileFields(e);
  },
  realm_bot(s, e) {
    s.admin.applyRealmBot(e);
  },
  default_streams(s, e) {
    s.admin.applyDefaultStreams(e);
  },
  muted_users(s, e) {
    s.admin.applyMutedUsers(e);
  },
  realm_domains(s, e) {
    s.admin.applyRealmDomains(e);
  },
  user_status(s, e) {
    s.admin.applyUserStatus(e);
  },
  invites_changed(s) {
    s.admin.invitesVersion.value++;
  },
};
