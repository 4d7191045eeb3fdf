// What PATCH /realm accepts: each realm setting's parser, whether only owners may change it and
// the shape of the event that announces it.
import { ApiError, badRequest } from './errors.ts';
import { ADMIN_LIMITS, COMMON_POLICY, MAX_DB_ID } from './limits.ts';

export interface RealmSettingSpec {
  /** Parses the raw request value (JSON-encoded unless `plainString`). */
  parse(raw: string, name: string): unknown;
  ownerOnly?: boolean;
  /** Sent as `update_dict` (the message-editing settings, as the reference does). */
  dict?: boolean;
  /** Stream settings: -1 or a stream of the realm, checked by the action. */
  stream?: boolean;
}

/** JSON-decodes a value; clients also send plain words (`unlimited`) and URLs unquoted. */
function json(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const invalid = (name: string): ApiError => badRequest(`Invalid ${name}`);

function bool(): RealmSettingSpec {
  return {
    parse(raw, name) {
      const v = json(raw);
      if (typeof v !== 'boolean') throw badRequest(`${name} is not a boolean`);
      return v;
    },
  };
}

function oneOf(values: readonly number[], extra: Partial<RealmSettingSpec> = {}): RealmSettingSpec {
  return {
    ...extra,
    parse(raw, name) {
      const v = json(raw);
      if (typeof v !== 'number' || !values.includes(v)) throw invalid(name);
      return v;
    },
  };
}

function intRange(min: number, max: number, extra: Partial<RealmSettingSpec> = {}): RealmSettingSpec {
  return {
    ...extra,
    parse(raw, name) {
      const v = json(raw);
      if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${name} is not an integer`);
      if (v < min || v > max) throw invalid(name);
      return v;
    },
  };
}

/** A positive number of seconds, or `unlimited` (stored as null). */
function timeLimit(extra: Partial<RealmSettingSpec> = {}): RealmSettingSpec {
  return {
    ...extra,
    parse(raw, name) {
      const v = json(raw);
      if (v === 'unlimited' || v === null) return null;
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw badRequest(`Bad value for '${name}': ${raw}`);
      if (v > 10 * 365 * 86400) throw badRequest(`Bad value for '${name}': ${raw}`);
      return v;
    },
  };
}

function text(maxLength: number, opts: { min?: number; pattern?: RegExp } = {}): RealmSettingSpec {
  return {
    parse(raw, name) {
      const v = raw.trim();
      if (v.length < (opts.min ?? 0)) throw badRequest(`${name} cannot be empty`);
      if (v.length > maxLength) throw badRequest(`${name} is too long (limit: ${maxLength} characters)`);
      if (opts.pattern && !opts.pattern.test(v)) throw invalid(name);
      return v;
    },
  };
}

const P = COMMON_POLICY;
const BASIC = [P.MEMBERS, P.ADMINS, P.FULL_MEMBERS, P.MODERATORS];
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
} as const;

export const GIF_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Y: Very young audience', id: 1 },
  g: { name: 'G: General audience', id: 2 },
  pg: { name: 'PG: Parental guidance', id: 3 },
  'pg-13': { name: 'PG-13: Parental guidance - under 13', id: 4 },
  r: { name: 'R: Restricted', id: 5 },
} as const;

/** Settings stored in realms.settings (the name and description have their own columns). */
export const REALM_SETTING_SPECS: Record<string, RealmSettingSpec> = {
  allow_message_editing: { ...bool(), dict: true },
  message_content_edit_limit_seconds: timeLimit({ dict: true }),
  edit_topic_policy: oneOf([...BASIC, P.EVERYONE], { dict: true }),
  move_messages_between_streams_policy: oneOf([...BASIC, P.NOBODY]),
  move_messages_within_stream_limit_seconds: timeLimit(),
  move_messages_between_streams_limit_seconds: timeLimit(),
  allow_edit_history: bool(),
  message_retention_days: {
    ownerOnly: true,
    parse(raw, name) {
      const v = json(raw);
      if (v === 'unlimited' || v === -1) return -1;
      // Past the integer column's range is as bad a value on SQLite as on PostgreSQL.
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > MAX_DB_ID) throw badRequest(`Bad value for '${name}': ${raw}`);
      return v;
    },
  },
  email_address_visibility: oneOf([1, 2, 3, 4, 5]),
  invite_required: { ...bool(), ownerOnly: true },
  invite_to_realm_policy: oneOf([...BASIC, P.NOBODY], { ownerOnly: true }),
  emails_restricted_to_domains: { ...bool(), ownerOnly: true },
  disallow_disposable_email_addresses: { ...bool(), ownerOnly: true },
  waiting_period_threshold: intRange(0, 1_000_000, { ownerOnly: true }),
  create_public_stream_policy: oneOf(BASIC),
  create_private_stream_policy: oneOf(BASIC),
  create_web_public_stream_policy: oneOf([P.ADMINS, P.MODERATORS, P.NOBODY, 7]),
  invite_to_stream_policy: oneOf(BASIC),
  delete_own_message_policy: oneOf([...BASIC, P.EVERYONE]),
  message_content_delete_limit_seconds: timeLimit(),
  enable_spectator_access: bool(),
  notifications_stream_id: intRange(-1, Number.MAX_SAFE_INTEGER, { stream: true }),
  signup_notifications_stream_id: intRange(-1, Number.MAX_SAFE_INTEGER, { stream: true }),
  org_type: oneOf(ORG_TYPES, { ownerOnly: true }),
  mandatory_topics: bool(),
  default_language: text(10, { min: 1, pattern: /^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/ }),
  bot_creation_policy: oneOf([1, 2, 3]),
  presence_disabled: bool(),
  send_welcome_emails: bool(),
  digest_emails_enabled: bool(),
  enable_read_receipts: bool(),
  video_chat_provider: oneOf(Object.values(VIDEO_CHAT_PROVIDERS).map((p) => p.id)),
  inline_image_preview: bool(),
  inline_url_embed_preview: bool(),
  default_code_block_language: text(100, { pattern: /^[\w#+.-]*$/ }),
  name_changes_disabled: bool(),
  email_changes_disabled: bool(),
  avatar_changes_disabled: bool(),
  want_advertise_in_communities_directory: { ...bool(), ownerOnly: true },
  user_group_edit_policy: oneOf(BASIC),
  add_custom_emoji_policy: oneOf(BASIC),
  wildcard_mention_policy: oneOf([1, 2, 3, 5, 6, 7]),
  private_message_policy: oneOf([1, 2]),
  message_content_allowed_in_email_notifications: bool(),
  digest_weekday: intRange(0, 6),
  giphy_rating: oneOf(Object.values(GIF_RATING_OPTIONS).map((p) => p.id)),
  video_chat_server_url: {
    parse(raw, name) {
      const v = json(raw);
      if (v === 'default' || v === null) return null;
      if (typeof v !== 'string' || v.length > 200 || !/^https?:\/\/[^\s/]+/.test(v)) throw badRequest(`${name} is not an allowed_type`);
      try {
        new URL(v);
      } catch {
        throw invalid(name);
      }
      return v;
    },
  },
  enable_guest_user_indicator: bool(),
};

/** The columns of realms that PATCH /realm also changes. */
export const REALM_COLUMN_SPECS: Record<'name' | 'description', RealmSettingSpec> = {
  name: text(ADMIN_LIMITS.maxRealmNameLength, { min: 1 }),
  description: text(ADMIN_LIMITS.maxRealmDescriptionLength),
};
