// Per-user message flags, stored as a bit set in user_messages.flags.

export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
} as const;

export type FlagName = keyof typeof FLAG_BITS;

/** Flags a client may change with POST /messages/flags. */
export const EDITABLE_FLAGS: readonly FlagName[] = ['read', 'starred', 'collapsed'];

export function flagNames(bits: number): string[] {
  const out: string[] = [];
  for (const [name, bit] of Object.entries(FLAG_BITS)) {
    if (bits & bit) out.push(name);
  }
  // The reference also reports the legacy combined flag.
  if (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) out.push('wildcard_mentioned');
  return out;
}

export function isFlagName(s: string): s is FlagName {
  return Object.prototype.hasOwnProperty.call(FLAG_BITS, s);
}
