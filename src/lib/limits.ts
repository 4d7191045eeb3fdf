// Server limits, in one place. Realm and user settings, their types and defaults are declared in
// settings-registry.ts, which takes its bounds from here (and nothing here imports it back).

export const SERVICE_VERSION = '0.1.0';
export const SERVICE_MERGE_BASE = '';
/** The API feature level whose behaviour Parley implements (the spec's table ends at 186). */
export const SERVICE_FEATURE_LEVEL = 186;

export const LIMITS = {
  maxMessageLength: 10000,
  /** A submessage's content (JSON text), and its type's name. */
  maxSubmessageLength: 10000,
  maxSubmessageTypeLength: 100,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxFullNameLength: 100,
  minFullNameLength: 1,
  maxEmailLength: 254,
  maxMessagesPerFetch: 5000,
  maxUserGroupNameLength: 100,
  passwordMinLength: 6,
  passwordMinGuesses: 10000,
  maxIconFileSizeMib: 5,
  maxLogoFileSizeMib: 5,
  maxAvatarFileSizeMib: 5,
  maxEmojiFileSizeMib: 5,
  eventQueueLongpollTimeoutSeconds: 90,
  /** Messages deleted per transaction by delete_topic, and its time budget per request. */
  deleteTopicBatchSize: 1000,
  deleteTopicBudgetSeconds: 50,
  /** Messages changed per POST /messages/flags/narrow request. */
  maxFlagsNarrowMessages: 5000,
  /** How often a server process looks for due scheduled messages. */
  scheduledDeliveryPollMs: 1000,
  /**
   * A server with no request for this long (up to twice this) gives memory back, and again after
   * as long (http/idle.ts); longer than the 5 s over which V8 measures the allocation rate.
   */
  idleCheckMs: 6000,
  /** How long a process's claim on a scheduled message lasts if it dies while sending. */
  scheduledDeliveryClaimSeconds: 60,
  /** A browser session ends this long after its last use (and its cookies after login or renewal). */
  sessionLifetimeSeconds: 14 * 24 * 3600,
  /** A session's last use is written at most this often (not on every request). */
  sessionTouchSeconds: 60,
  /** The image proxy: time for the whole fetch, and the largest image passed on. */
  imageProxyTimeoutMs: 10_000,
  imageProxyMaxBytes: 10 * 1024 * 1024,
  /** Image proxy fetches at once per process (each may hold imageProxyMaxBytes); others wait. */
  imageProxyConcurrency: 8,
  /**
   * A new person starts with the newest messages of the streams they join with (the reference's
   * add_new_user_history): up to this many, sent this recently, the newest few of them unread.
   */
  newUserHistoryMessages: 1000,
  newUserHistoryUnread: 20,
  newUserHistorySeconds: 12 * 7 * 24 * 3600,
  /** Link previews: time for each page (redirects and body included), and the most read of it. */
  linkPreviewTimeoutMs: 10_000,
  linkPreviewMaxBytes: 1024 * 1024,
  /** Links previewed per message, and previews fetched at once by one process. */
  linkPreviewMaxLinks: 5,
  linkPreviewConcurrency: 4,
  /** Previews kept per process, and for how long, so a link posted again is not fetched again. */
  linkPreviewCacheEntries: 1000,
  linkPreviewCacheSeconds: 3600,
} as const;

/** The largest row ID (PostgreSQL `integer`): larger IDs in requests cannot name anything. */
export const MAX_DB_ID = 2147483647;

/** An ID found inside a JSON parameter. */
export function isDbId(v: unknown): v is number {
  return Number.isSafeInteger(v) && Math.abs(v as number) <= MAX_DB_ID;
}

/** Organization administration: names, descriptions, custom emoji, linkifiers and bots. */
export const ADMIN_LIMITS = {
  maxRealmNameLength: 40,
  maxRealmDescriptionLength: 1000,
  maxEmojiNameLength: 60,
  maxLinkifierPatternLength: 1000,
  maxLinkifierTemplateLength: 1024,
  /** Largest {n,m} repeat count a linkifier pattern may use (bounded work per match). */
  maxLinkifierRepeat: 1000,
  /** A new pattern is timed on runs of this many characters... */
  linkifierProbeLength: 1500,
  /** ...and refused if those take longer than this (quadratic patterns take a few ms). */
  linkifierProbeMillis: 2000,
  maxDefaultStreamGroupNameLength: 60,
  maxBotShortNameLength: 40,
} as const;

/** Bot types of the reference: generic, incoming webhook, outgoing webhook, embedded. */
export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
