// Whether a message belongs to a narrow, decided on the client for messages that arrive live.
// `undefined` means the client cannot tell (search, has:): such lists are refetched instead.
import type { Message, Narrow, Term } from './types.ts';

export function dmUserIds(m: Message): number[] {
  return Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
}

/** The conversation key of a DM: the other participants' IDs, sorted (yourself alone for a note to self). */
export function dmKey(userIds: readonly number[], me: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return (others.length ? others : [me]).join(',');
}

/** A stream message's topic as the server files it: one sent without a topic goes under "(no topic)". */
export function filedTopic(topic: string): string {
  return topic.trim() || '(no topic)';
}

export function operandIds(operand: Term['operand']): number[] {
  if (Array.isArray(operand)) return operand.map(Number);
  if (typeof operand === 'number') return [operand];
  return operand.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n));
}

/**
 * What a message's mark says: 'edited' once its content changed, 'moved' when only its topic or
 * stream did (an edit history of moves alone), null when neither. Without a history (the
 * organization hides it) any change reads as an edit.
 */
export function editMark(m: Message): 'edited' | 'moved' | null {
  if (!m.last_edit_timestamp) return null;
  const history = m.edit_history;
  if (!history || history.length === 0 || history.some((h) => h.prev_content !== undefined)) return 'edited';
  return 'moved';
}

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];
export const isMentioned = (flags: readonly string[]): boolean => flags.some((f) => MENTION_FLAGS.includes(f));

function termMatches(t: Term, m: Message, me: number): boolean | undefined {
  switch (t.operator) {
    case 'channel':
    case 'stream':
      return m.type === 'stream' && (m.stream_id === Number(t.operand) || m.display_recipient === t.operand);
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === String(t.operand).toLowerCase();
    case 'sender':
      return m.sender_id === Number(t.operand) || m.sender_email === t.operand;
    case 'dm':
    case 'pm-with':
      return m.type === 'private' && dmKey(dmUserIds(m), me) === dmKey(operandIds(t.operand), me);
    case 'dm-including':
      return m.type === 'private' && dmUserIds(m).includes(Number(t.operand));
    case 'id':
      return m.id === Number(t.operand);
    case 'is':
      switch (t.operand) {
        case 'dm':
        case 'private':
          return m.type === 'private';
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return isMentioned(m.flags);
        case 'unread':
          return !m.flags.includes('read');
        case 'alerted':
          return m.flags.includes('has_alert_word');
      }
      return undefined;
    default:
      return undefined;
  }
}

export function narrowMatches(narrow: Narrow, m: Message, me: number): boolean | undefined {
  let result: boolean | undefined = true;
  for (const t of narrow) {
    const r = termMatches(t, m, me);
    if (r === undefined) result = undefined;
    else if (r === !!t.negated) return false;
  }
  return result;
}

/** Narrows whose membership can change with a message's flags, topic or stream. */
export const narrowKey = (narrow: Narrow): string => JSON.stringify(narrow.map((t) => [t.operator, t.operand, !!t.negated]));
