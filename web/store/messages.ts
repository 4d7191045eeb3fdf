// Messages the client has loaded, kept once by ID, and the lists (one per narrow) that show
// them. A list is a sorted run of IDs from the server plus what arrived live since; whether it
// reaches the oldest and newest message is remembered so the view knows when to fetch more.
import { signal } from '@preact/signals';
import { narrowKey, narrowMatches } from './match.ts';
import type { EditHistoryEntry, Message, Narrow, Reaction } from './types.ts';
import type { Submessage } from '../lib/widgets.ts';

export class MessageList {
  ids: number[] = [];
  foundOldest = false;
  foundNewest = false;
  /** The server's anchor of the first fetch (first unread), for the view to scroll to. */
  anchor: number | null = null;
  /**
   * Live messages of this narrow that came while the list did not reach the newest message: a
   * fetch under way may have been answered before they were sent, so they are added when a
   * fetch reaches the newest message.
   */
  private missedLive = new Set<number>();
  /** Bumped on every change; views subscribe to it. */
  readonly version = signal(0);
  /** Bumped when the list is replaced by another stretch of the narrow (`replace`): the view starts over. */
  generation = 0;

  constructor(
    readonly key: string,
    readonly narrow: Narrow,
  ) {}

  get loaded(): boolean {
    return this.ids.length > 0 || this.foundOldest || this.foundNewest;
  }

  touch(): void {
    this.version.value++;
  }

  /** Adds IDs from a fetch of this list; the range between them holds no other message. */
  addRange(ids: number[], foundOldest: boolean, foundNewest: boolean): void {
    this.merge(ids);
    if (foundOldest) this.foundOldest = true;
    if (foundNewest) {
      this.foundNewest = true;
      const first = this.ids[0];
      const missed = [...this.missedLive].filter((id) => this.foundOldest || (first !== undefined && id > first));
      this.missedLive.clear();
      this.merge(missed);
    }
    this.touch();
  }

  /**
   * Replaces what the list holds by a stretch of messages not joined to it (the newest ones,
   * after a send from far back), with the message to show as its anchor.
   */
  replace(ids: number[], foundOldest: boolean, foundNewest: boolean, anchor: number | null): void {
    this.ids = [];
    this.foundOldest = false;
    this.foundNewest = false;
    this.anchor = anchor;
    this.generation++;
    this.addRange(ids, foundOldest, foundNewest);
  }

  private merge(ids: number[]): void {
    if (ids.length === 0) return;
    const last = this.ids[this.ids.length - 1];
    const sorted = [...ids].sort((a, b) => a - b);
    if (last === undefined || sorted[0]! > last) {
      this.ids.push(...sorted);
      return;
    }
    const first = this.ids[0]!;
    if (sorted[sorted.length - 1]! < first) {
      this.ids.unshift(...sorted);
      return;
    }
    this.ids = [...new Set([...this.ids, ...sorted])].sort((a, b) => a - b);
  }

  /** A live message: appended only while the list reaches the newest message. */
  addLive(id: number): boolean {
    if (!this.foundNewest) {
      this.missedLive.add(id);
      return false;
    }
    if (this.ids.includes(id)) return false;
    this.merge([id]);
    this.touch();
    return true;
  }

  remove(ids: ReadonlySet<number>): void {
    for (const id of ids) this.missedLive.delete(id);
    const before = this.ids.length;
    this.ids = this.ids.filter((id) => !ids.has(id));
    if (this.ids.length !== before) this.touch();
  }

  /** Inserts a message that moved into this narrow, when it falls inside the loaded range. */
  insertIfInRange(id: number): void {
    if (this.ids.includes(id)) return;
    const first = this.ids[0];
    const last = this.ids[this.ids.length - 1];
    const afterStart = this.foundOldest || (first !== undefined && id > first);
    const beforeEnd = this.foundNewest || (last !== undefined && id < last);
    if (afterStart && beforeEnd) {
      this.merge([id]);
      this.touch();
    }
  }
}

export class MessageStore {
  readonly byId = new Map<number, Message>();
  readonly lists = new Map<string, MessageList>();
  /** Bumped when any message's content, flags or reactions change. */
  readonly version = signal(0);

  constructor(
    private readonly me: () => number,
    /** The organization's `allow_edit_history`: without it, messages come without their edit history. */
    private readonly historyShown: () => boolean = () => true,
  ) {}

  /**
   * Notes an edit or a move in what the store knows of a message's history (its mark reads it).
   * A message never edited came without a history, and this change is all of it.
   */
  private noteEdit(m: Message, entry: EditHistoryEntry): void {
    const known = m.edit_history ?? (m.last_edit_timestamp === undefined && this.historyShown() ? [] : undefined);
    m.last_edit_timestamp = entry.timestamp;
    if (known) m.edit_history = [entry, ...known];
  }

  list(narrow: Narrow): MessageList {
    const key = narrowKey(narrow);
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = new MessageList(key, narrow)));
    return l;
  }

  /** Messages from a fetch: stored, newer versions replacing older ones. */
  put(messages: Message[]): void {
    for (const m of messages) {
      const old = this.byId.get(m.id);
      // A search fetch carries highlighting that other fetches do not: keep it.
      this.byId.set(m.id, old ? { ...old, ...m } : m);
    }
    this.version.value++;
  }

  /** Forgets every list (a new queue after a lost one: the lists may miss messages). */
  resetLists(keep?: MessageList): void {
    for (const [k, l] of this.lists) {
      if (l === keep) continue;
      this.lists.delete(k);
    }
  }

  /** Changes a message as a new object, so views that compare by identity re-render it. */
  private edit(id: number, fn: (m: Message) => void): Message | undefined {
    const old = this.byId.get(id);
    if (!old) return undefined;
    const m = { ...old };
    fn(m);
    this.byId.set(id, m);
    return m;
  }

  // --- event applies -------------------------------------------------------------------

  applyMessage(m: Message): void {
    this.byId.set(m.id, m);
    for (const l of this.lists.values()) {
      const match = narrowMatches(l.narrow, m, this.me());
      if (match === true) l.addLive(m.id);
      else if (match === undefined) l.foundNewest = false; // refetched when scrolled to the end
    }
    this.version.value++;
  }

  applyUpdate(e: Record<string, unknown>): void {
    const id = e.message_id as number | undefined;
    if (id !== undefined && typeof e.rendered_content === 'string') {
      const content = e.rendered_content;
      this.edit(id, (m) => {
        m.content = content;
        delete m.match_content;
        // A rendering-only update (a link preview) is no edit: no mark, no history entry.
        if (typeof e.edit_timestamp === 'number' && e.rendering_only !== true) this.noteEdit(m, { timestamp: e.edit_timestamp, prev_content: String(e.orig_content ?? '') });
        if (Array.isArray(e.flags)) m.flags = e.flags as string[];
      });
    }
    const ids = (e.message_ids as number[] | undefined) ?? [];
    const moved = typeof e.subject === 'string' || typeof e.new_stream_id === 'number';
    if (moved) {
      const touched: Message[] = [];
      for (const mid of ids) {
        const m = this.edit(mid, (m) => {
          if (typeof e.subject === 'string') m.subject = e.subject;
          // display_recipient keeps the old stream's name; views look names up by stream ID.
          if (typeof e.new_stream_id === 'number') m.stream_id = e.new_stream_id;
          delete m.match_subject;
          if (typeof e.edit_timestamp === 'number') {
            const entry: EditHistoryEntry = { timestamp: e.edit_timestamp };
            if (typeof e.orig_subject === 'string') entry.prev_topic = e.orig_subject;
            if (typeof e.new_stream_id === 'number' && typeof e.stream_id === 'number') entry.prev_stream = e.stream_id;
            this.noteEdit(m, entry);
          }
        });
        if (m) touched.push(m);
      }
      for (const l of this.lists.values()) {
        const out = new Set<number>();
        for (const m of touched) {
          const match = narrowMatches(l.narrow, m, this.me());
          if (match === false) out.add(m.id);
          else if (match === true) l.insertIfInRange(m.id);
        }
        if (out.size) l.remove(out);
      }
    }
    this.version.value++;
    for (const l of this.lists.values()) l.touch();
  }

  applyDelete(ids: number[]): void {
    const gone = new Set(ids);
    for (const id of ids) this.byId.delete(id);
    for (const l of this.lists.values()) l.remove(gone);
    this.version.value++;
  }

  applyFlags(op: 'add' | 'remove', flag: string, ids: number[]): void {
    let changed = false;
    for (const id of ids) {
      const has = this.byId.get(id)?.flags.includes(flag);
      if (has === undefined || has === (op === 'add')) continue;
      changed = true;
      this.edit(id, (m) => {
        m.flags = op === 'add' ? [...m.flags, flag] : m.flags.filter((f) => f !== flag);
      });
    }
    if (flag === 'starred') {
      // The starred view gains or loses messages.
      for (const l of this.lists.values()) {
        if (!l.narrow.some((t) => t.operator === 'is' && t.operand === 'starred')) continue;
        if (op === 'remove') l.remove(new Set(ids));
        else for (const id of ids) if (this.byId.has(id)) l.insertIfInRange(id);
      }
    }
    // Only a change re-renders the lists: the echo of the read marks this client just set (it
    // set them here first) would otherwise redraw every list once more, and could land between
    // a list's own scroll and its scroll event (MessageView's `stick`).
    if (changed || flag === 'starred') this.version.value++;
  }

  applyReaction(op: 'add' | 'remove', messageId: number, r: Reaction): void {
    const same = (x: Reaction) => x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type;
    this.edit(messageId, (m) => {
      if (op === 'add' && !m.reactions.some(same)) m.reactions = [...m.reactions, r];
      if (op === 'remove') m.reactions = m.reactions.filter((x) => !same(x));
    });
    this.version.value++;
  }

  applySubmessage(messageId: number, sm: Submessage): void {
    this.edit(messageId, (m) => {
      const list = m.submessages ?? [];
      if (!list.some((x) => x.id === sm.id)) m.submessages = [...list, sm];
    });
    this.version.value++;
  }
}
