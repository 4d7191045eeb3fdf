// <time:...> mentions: a forgiving date parser for the formats people type, to UTC ISO 8601.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// Offsets in minutes for the zone abbreviations people commonly write.
const ZONES: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, ist: 330, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360,
  pst: -480, pdt: -420, cet: 60, cest: 120, bst: 60, eet: 120, eest: 180, jst: 540, kst: 540,
  aest: 600, aedt: 660, nzst: 720, nzdt: 780, msk: 180, sgt: 480, hkt: 480, wib: 420,
};
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const MIN_MS = Date.UTC(1, 0, 1) - 0;

function iso(ms: number): string | undefined {
  if (!Number.isFinite(ms) || ms > MAX_MS || ms < MIN_MS) return undefined;
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const frac = d.getUTCMilliseconds() ? '.' + pad(d.getUTCMilliseconds() * 1000, 6) : '';
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}Z`;
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMin: number): number {
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo, d);
  dt.setUTCHours(h, mi, s, 0);
  return dt.getTime() - offsetMin * 60_000;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseIso(text: string): number | undefined | null {
  const m = ISO_RE.exec(text);
  if (!m) return undefined;
  let offset = 0;
  const tz = m[7];
  if (tz && tz.toUpperCase() !== 'Z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    const digits = tz.slice(1).replace(':', '');
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
    if (Math.abs(offset) >= 24 * 60) return null;
  }
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return utc(y, mo - 1, d, h, mi, s, offset);
}

function parseWords(text: string): number | undefined {
  const tokens = text.toLowerCase().replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let offset = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const mon = MONTHS.indexOf(t.slice(0, 3));
    const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm)?$/.exec(t);
    const num = /^(\d{1,4})(st|nd|rd|th)?$/.exec(t);
    if (mon >= 0 && /^[a-z]+\.?$/.test(t)) {
      month = mon;
    } else if (time) {
      hour = Number(time[1]);
      minute = Number(time[2]);
      second = Number(time[3] ?? 0);
      let ampm = time[4];
      if (!ampm && (tokens[i + 1] === 'am' || tokens[i + 1] === 'pm')) ampm = tokens[++i];
      if (hour > 23 || minute > 59 || second > 59) return undefined;
      if (ampm === 'pm' && hour < 12) hour += 12;
      if (ampm === 'am' && hour === 12) hour = 0;
    } else if (num) {
      const n = Number(num[1]);
      if ((num[1] ?? '').length === 4) year = n;
      else if (day === undefined && n >= 1 && n <= 31) day = n;
      else return undefined;
    } else if (t in ZONES) {
      offset = ZONES[t] ?? 0;
    } else if (t !== 'at' && t !== 'the' && t !== 'of') {
      return undefined;
    }
  }
  if (month === undefined && day === undefined && year === undefined) return undefined;
  const now = new Date();
  return utc(year ?? now.getUTCFullYear(), month ?? now.getUTCMonth(), day ?? now.getUTCDate(), hour, minute, second, offset);
}

// The UTC ISO string for a typed time, or undefined when it cannot be read.
export function parseTimeMention(text: string): string | undefined {
  const trimmed = text.trim();
  const isoMs = parseIso(trimmed);
  if (isoMs === null) return undefined;
  if (isoMs !== undefined) return iso(isoMs);
  const words = parseWords(trimmed);
  if (words !== undefined) return iso(words);
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return iso(Number(trimmed) * 1000);
  return undefined;
}
