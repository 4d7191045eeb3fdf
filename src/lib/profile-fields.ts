// Custom profile fields: the eight types, the rules of their field_data, and the checks and
// rendering of users' values.
import { renderMarkdown, plainContext } from './markdown/index.ts';
import { badRequest } from './errors.ts';
import { MAX_DB_ID } from './limits.ts';

export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** `custom_profile_field_types` of the register snapshot. */
export const FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: 'Short text' },
  LONG_TEXT: { id: 2, name: 'Long text' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  USER: { id: 6, name: 'Person picker' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** The external accounts a field can name without a URL pattern of its own. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; text: string; hint: string; url_pattern: string }> = {
  github: { name: 'GitHub', text: 'GitHub', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
  twitter: { name: 'Twitter', text: 'Twitter', hint: 'Enter your Twitter username', url_pattern: 'https://twitter.com/%(username)s' },
};

export const PROFILE_LIMITS = { nameLength: 40, hintLength: 80, shortValueLength: 50, longValueLength: 500, summaryFields: 2 } as const;

const TYPE_IDS: readonly number[] = Object.values(FIELD_TYPE);

export function checkFieldType(type: number): number {
  if (!TYPE_IDS.includes(type)) throw badRequest('Invalid field type.');
  return type;
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks field_data for the type and returns the text to store ('' for types without data). */
export function checkFieldData(type: number, data: Record<string, unknown> | undefined): string {
  if (type === FIELD_TYPE.SELECT) {
    if (data === undefined || Object.keys(data).length === 0) throw badRequest('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, choice] of Object.entries(data)) {
      if (!isDict(choice)) throw badRequest(`field_data["${key}"] is not a dict`);
      for (const k of ['text', 'order']) {
        if (typeof choice[k] !== 'string') throw badRequest(`field_data["${key}"]["${k}"] is not a string`);
      }
      const text = choice.text as string;
      if (text.trim() === '') throw badRequest('Labels for choices cannot be blank.');
      if (texts.has(text)) throw badRequest('Field must not have duplicate choices.');
      texts.add(text);
    }
    return JSON.stringify(data);
  }
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    if (data === undefined || typeof data.subtype !== 'string') throw badRequest('field_data is missing key \'subtype\'');
    const subtype = data.subtype;
    if (subtype === 'custom') {
      const pattern = data.url_pattern;
      if (typeof pattern !== 'string' || pattern.split('%(username)s').length !== 2 || !/^https?:\/\//.test(pattern)) {
        throw badRequest('Malformed URL pattern.');
      }
      return JSON.stringify({ subtype, url_pattern: pattern });
    }
    if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) throw badRequest('Invalid external account type');
    return JSON.stringify({ subtype });
  }
  return '';
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
  } catch {
    return false;
  }
}

export interface FieldForValue {
  name: string;
  type: number;
  field_data: string;
}

/**
 * Checks a user's value for a field and returns the text to store. Person-picker values are
 * lists of user IDs (checked by the caller against the realm), stored as JSON text.
 */
export function checkFieldValue(field: FieldForValue, value: unknown): string {
  const name = field.name;
  if (field.type === FIELD_TYPE.USER) {
    if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v))) throw badRequest(`${name} is not a list`);
    if (!value.every((v) => Math.abs(v as number) <= MAX_DB_ID)) throw badRequest(`Invalid user ID: ${value.find((v) => Math.abs(v as number) > MAX_DB_ID)}`);
    return JSON.stringify([...new Set(value as number[])]);
  }
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  switch (field.type) {
    case FIELD_TYPE.LONG_TEXT:
      if (value.length > PROFILE_LIMITS.longValueLength) throw badRequest(`${name} is too long (limit: ${PROFILE_LIMITS.longValueLength} characters)`);
      return value;
    case FIELD_TYPE.DATE:
      if (!isDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case FIELD_TYPE.URL:
      if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    case FIELD_TYPE.SELECT: {
      const choices = field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
      if (!Object.hasOwn(choices, value)) throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      return value;
    }
    default:
      if (value.length > PROFILE_LIMITS.shortValueLength) throw badRequest(`${name} is too long (limit: ${PROFILE_LIMITS.shortValueLength} characters)`);
      return value;
  }
}

/** Whether values of the type are Markdown, shown with a `rendered_value`. */
export const isRenderable = (type: number): boolean => type === FIELD_TYPE.SHORT_TEXT || type === FIELD_TYPE.LONG_TEXT;

export function renderFieldValue(type: number, value: string, realmUrl: string): string | null {
  return isRenderable(type) ? renderMarkdown(value, plainContext(realmUrl)).html : null;
}

/** A value that means "remove my value": empty text, an empty list, or null. */
export const isEmptyValue = (v: unknown): boolean => v === null || v === '' || (Array.isArray(v) && v.length === 0);
