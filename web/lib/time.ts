// Times and dates as the message list and the buddy list show them.
//
// Interface (pure; timestamps are UTC seconds as the API sends them; `locale` is the user's
// `default_language` setting; `timeZone` defaults to the browser's and is there for tests):
//   resolveLocale(lang?) -> string                      a valid BCP 47 tag ("zh_hans" -> "zh-Hans"), else "en"
//   formatTime(ts, { twentyFourHour, locale?, timeZone? }) -> "14:05" | "2:05 PM"
//   dayKey(ts, timeZone?) -> "2026-11-25"                same key = same date separator group
//   dateSeparator(ts, nowTs, { locale?, timeZone? }) -> "Today" | "Yesterday" | "Monday" | "November 3" | "November 3, 2024"
//   fullTimestamp(ts, { twentyFourHour, locale?, timeZone? }) -> "Wednesday, November 25, 2026 at 14:05:03" (title tooltips)
//   relativeTime(ts, nowTs, locale?) -> "now" | "5 minutes ago" | "yesterday" | "3 months ago"
//   presenceStatus({ active_timestamp?, idle_timestamp? } | undefined, nowTs, offlineThresholdSeconds = 140)
//     -> 'active' | 'idle' | 'offline'   (slim presence; the threshold is the register's
//        `server_presence_offline_threshold_seconds`)
//   lastActiveText(presence, nowTs, locale?, threshold?) -> "Active now" | "Idle" | "Active 5 minutes ago" | "Never active"

export interface TimeOptions {
  twentyFourHour: boolean;
  locale?: string | undefined;
  timeZone?: string | undefined;
}

export interface DateOptions {
  locale?: string | undefined;
  timeZone?: string | undefined;
}

const localeCache = new Map<string, string>();

export function resolveLocale(lang?: string): string {
  if (!lang) return 'en';
  let resolved = localeCache.get(lang);
  if (resolved === undefined) {
    try {
      resolved = Intl.getCanonicalLocales(lang.replace(/_/g, '-'))[0] ?? 'en';
      // A well-formed tag the engine has no data for falls back to its default; that is fine.
      new Intl.DateTimeFormat(resolved);
    } catch {
      resolved = 'en';
    }
    localeCache.set(lang, resolved);
  }
  return resolved;
}

// Formatters are costly to build and the message list formats thousands of times.
const formatters = new Map<string, Intl.DateTimeFormat>();
function dtf(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = locale + JSON.stringify(options);
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, f);
  }
  return f;
}

// hourCycle rather than hour12: `hour12: false` renders midnight as "24:05" in some engines.
const cycle = (twentyFourHour: boolean) => (twentyFourHour ? 'h23' : 'h12');

export function formatTime(ts: number, opts: TimeOptions): string {
  return dtf(resolveLocale(opts.locale), {
    hour: opts.twentyFourHour ? '2-digit' : 'numeric',
    minute: '2-digit',
    hourCycle: cycle(opts.twentyFourHour),
    timeZone: opts.timeZone,
  }).format(ts * 1000);
}

export function fullTimestamp(ts: number, opts: TimeOptions): string {
  return dtf(resolveLocale(opts.locale), {
    dateStyle: 'full',
    timeStyle: 'medium',
    hourCycle: cycle(opts.twentyFourHour),
    timeZone: opts.timeZone,
  }).format(ts * 1000);
}

function dateParts(ts: number, timeZone?: string): { y: number; m: number; d: number } {
  const parts = dtf('en-US', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone }).formatToParts(ts * 1000);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), m: get('month'), d: get('day') };
}

export function dayKey(ts: number, timeZone?: string): string {
  const { y, m, d } = dateParts(ts, timeZone);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function capitalize(s: string, locale: string): string {
  return s.charAt(0).toLocaleUpperCase(locale) + s.slice(1);
}

export function dateSeparator(ts: number, nowTs: number, opts: DateOptions = {}): string {
  const locale = resolveLocale(opts.locale);
  const a = dateParts(ts, opts.timeZone);
  const b = dateParts(nowTs, opts.timeZone);
  const days = Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
  if (days === 0 || days === 1) {
    return capitalize(new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-days, 'day'), locale);
  }
  if (days > 1 && days < 7) return dtf(locale, { weekday: 'long', timeZone: opts.timeZone }).format(ts * 1000);
  const sameYear = a.y === b.y && days > 0;
  return dtf(locale, { month: 'long', day: 'numeric', year: sameYear ? undefined : 'numeric', timeZone: opts.timeZone }).format(ts * 1000);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

export function relativeTime(ts: number, nowTs: number, locale?: string): string {
  const rtf = new Intl.RelativeTimeFormat(resolveLocale(locale), { numeric: 'auto' });
  const elapsed = Math.max(0, nowTs - ts);
  for (const [unit, seconds] of UNITS) {
    if (elapsed >= seconds) return rtf.format(-Math.floor(elapsed / seconds), unit);
  }
  return rtf.format(0, 'second');
}

export interface PresenceTimes {
  active_timestamp?: number | undefined;
  idle_timestamp?: number | undefined;
}

export type PresenceStatus = 'active' | 'idle' | 'offline';

export function presenceStatus(presence: PresenceTimes | undefined, nowTs: number, offlineThresholdSeconds = 140): PresenceStatus {
  if (!presence) return 'offline';
  const since = nowTs - offlineThresholdSeconds;
  if ((presence.active_timestamp ?? 0) >= since) return 'active';
  if ((presence.idle_timestamp ?? 0) >= since) return 'idle';
  return 'offline';
}

export function lastActiveText(presence: PresenceTimes | undefined, nowTs: number, locale?: string | undefined, offlineThresholdSeconds = 140): string {
  const status = presenceStatus(presence, nowTs, offlineThresholdSeconds);
  if (status === 'active') return 'Active now';
  if (status === 'idle') return 'Idle';
  const last = Math.max(presence?.active_timestamp ?? 0, presence?.idle_timestamp ?? 0);
  if (last === 0) return 'Never active';
  return `Active ${relativeTime(last, nowTs, locale)}`;
}
