import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dateSeparator, dayKey, formatTime, fullTimestamp, lastActiveText, presenceStatus, relativeTime, resolveLocale } from '../../lib/time.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const UTC = { timeZone: 'UTC' };

test('formatTime follows the 24-hour setting', () => {
  assert.equal(formatTime(at('2026-11-25T14:05:00Z'), { twentyFourHour: true, ...UTC }), '14:05');
  assert.equal(formatTime(at('2026-11-25T00:05:00Z'), { twentyFourHour: true, ...UTC }), '00:05');
  assert.match(formatTime(at('2026-11-25T14:05:00Z'), { twentyFourHour: false, ...UTC }), /^2:05\sPM$/);
  assert.match(formatTime(at('2026-11-25T00:05:00Z'), { twentyFourHour: false, ...UTC }), /^12:05\sAM$/);
  assert.equal(formatTime(at('2026-11-25T14:05:00Z'), { twentyFourHour: true, timeZone: 'Asia/Kolkata' }), '19:35');
});

test('dateSeparator: Today, Yesterday, weekday within a week, then the date', () => {
  const now = at('2026-11-25T09:00:00Z'); // a Wednesday
  assert.equal(dateSeparator(at('2026-11-25T00:00:01Z'), now, UTC), 'Today');
  assert.equal(dateSeparator(at('2026-11-24T23:59:59Z'), now, UTC), 'Yesterday');
  assert.equal(dateSeparator(at('2026-11-23T12:00:00Z'), now, UTC), 'Monday');
  assert.equal(dateSeparator(at('2026-11-19T12:00:00Z'), now, UTC), 'Thursday');
  assert.equal(dateSeparator(at('2026-11-18T12:00:00Z'), now, UTC), 'November 18');
  assert.equal(dateSeparator(at('2024-03-04T12:00:00Z'), now, UTC), 'March 4, 2024');
  assert.equal(dateSeparator(at('2026-11-24T23:00:00Z'), now, { timeZone: 'Europe/Berlin' }), 'Today');
  assert.equal(dateSeparator(at('2026-11-24T12:00:00Z'), now, { locale: 'de', ...UTC }), 'Gestern');
  assert.equal(dateSeparator(at('2026-11-23T12:00:00Z'), now, { locale: 'de', ...UTC }), 'Montag');
  assert.equal(dateSeparator(at('2026-11-25T12:00:00Z'), now, { locale: 'fr', ...UTC }), 'Aujourd’hui');
});

test('dayKey groups by calendar day in the time zone', () => {
  assert.equal(dayKey(at('2026-11-24T23:30:00Z'), 'UTC'), '2026-11-24');
  assert.equal(dayKey(at('2026-11-24T23:30:00Z'), 'Europe/Berlin'), '2026-11-25');
});

test('fullTimestamp gives the date and the time with seconds', () => {
  const ts = at('2026-11-25T14:05:03Z');
  assert.equal(fullTimestamp(ts, { twentyFourHour: true, ...UTC }), 'Wednesday, November 25, 2026 at 14:05:03');
  assert.match(fullTimestamp(ts, { twentyFourHour: false, ...UTC }), /^Wednesday, November 25, 2026 at 2:05:03\sPM$/);
  assert.match(fullTimestamp(ts, { twentyFourHour: true, locale: 'de', ...UTC }), /^Mittwoch, 25\. November 2026 um 14:05:03$/);
});

test('resolveLocale accepts the setting forms and falls back to English', () => {
  assert.equal(resolveLocale('zh-hans'), 'zh-Hans');
  assert.equal(resolveLocale('pt_BR'), 'pt-BR');
  assert.equal(resolveLocale(''), 'en');
  assert.equal(resolveLocale('not a locale!'), 'en');
});

test('relativeTime and the presence helpers', () => {
  const now = at('2026-11-25T12:00:00Z');
  assert.equal(relativeTime(now - 10, now), 'now');
  assert.equal(relativeTime(now - 5 * 60, now), '5 minutes ago');
  assert.equal(relativeTime(now - 3 * 3600, now), '3 hours ago');
  assert.equal(relativeTime(now - 86_400 - 10, now), 'yesterday');
  assert.equal(relativeTime(now - 3 * 30 * 86_400, now), '3 months ago');
  assert.equal(relativeTime(now - 5 * 60, now, 'de'), 'vor 5 Minuten');

  assert.equal(presenceStatus(undefined, now), 'offline');
  assert.equal(presenceStatus({ active_timestamp: now - 100 }, now), 'active');
  assert.equal(presenceStatus({ active_timestamp: now - 200, idle_timestamp: now - 30 }, now), 'idle');
  assert.equal(presenceStatus({ active_timestamp: now - 200, idle_timestamp: now - 200 }, now), 'offline');
  assert.equal(presenceStatus({ active_timestamp: now - 200 }, now, 300), 'active');

  assert.equal(lastActiveText({ active_timestamp: now - 20 }, now), 'Active now');
  assert.equal(lastActiveText({ idle_timestamp: now - 20 }, now), 'Idle');
  assert.equal(lastActiveText({ active_timestamp: now - 7200, idle_timestamp: now - 3600 }, now), 'Active 1 hour ago');
  assert.equal(lastActiveText(undefined, now), 'Never active');
});
