import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actionFor, formatKey, keyName, SHORTCUTS } from '../../lib/keyboard.ts';

test('keyName names keys as the shortcut table does', () => {
  assert.equal(keyName({ key: 'c' }), 'c');
  assert.equal(keyName({ key: 'C' }), 'c'); // Caps Lock
  assert.equal(keyName({ key: 'U', shiftKey: true }), 'Shift+U');
  assert.equal(keyName({ key: '?', shiftKey: true }), '?');
  assert.equal(keyName({ key: '*', shiftKey: true }), '*');
  assert.equal(keyName({ key: 'k', ctrlKey: true }), 'Ctrl+K');
  assert.equal(keyName({ key: 'k', metaKey: true }), 'Ctrl+K');
  assert.equal(keyName({ key: '[', ctrlKey: true }), 'Ctrl+[');
  assert.equal(keyName({ key: 'π', code: 'KeyP', altKey: true }), 'Alt+P');
  assert.equal(keyName({ key: 'с', code: 'KeyC' }), 'c'); // Cyrillic layout
  assert.equal(keyName({ key: 'ArrowDown', shiftKey: true }), 'Shift+ArrowDown');
  assert.equal(keyName({ key: 'PageDown' }), 'PageDown');
});

test('actionFor maps the required shortcuts', () => {
  const cases: [string, Parameters<typeof actionFor>[0], string][] = [
    ['c', { key: 'c' }, 'compose'],
    ['x', { key: 'x' }, 'compose_dm'],
    ['r', { key: 'r' }, 'reply'],
    ['Enter', { key: 'Enter' }, 'reply'],
    ['j', { key: 'j' }, 'select_next'],
    ['k', { key: 'k' }, 'select_previous'],
    ['ArrowDown', { key: 'ArrowDown' }, 'select_next'],
    ['ArrowUp', { key: 'ArrowUp' }, 'select_previous'],
    ['n', { key: 'n' }, 'next_unread_topic'],
    ['/', { key: '/' }, 'search'],
    ['Esc', { key: 'Escape' }, 'escape'],
    ['e', { key: 'e' }, 'edit'],
    ['*', { key: '*', shiftKey: true }, 'star'],
    ['?', { key: '?', shiftKey: true }, 'show_shortcuts'],
    ['PageUp', { key: 'PageUp' }, 'page_up'],
    ['PageDown', { key: 'PageDown' }, 'page_down'],
    ['End', { key: 'End' }, 'select_last'],
    ['u', { key: 'u' }, 'sender_profile'],
  ];
  for (const [label, e, action] of cases) assert.equal(actionFor(e, false), action, label);
  assert.equal(actionFor({ key: 'q' }, false), undefined);
  assert.equal(actionFor({ key: 'c', ctrlKey: true }, false), undefined);
  assert.equal(actionFor({ key: 'J', shiftKey: true }, false), undefined);
});

test('while typing only Esc and the keys the reference allows fire', () => {
  assert.equal(actionFor({ key: 'c' }, true), undefined);
  assert.equal(actionFor({ key: 'Enter' }, true), undefined);
  assert.equal(actionFor({ key: '/' }, true), undefined);
  assert.equal(actionFor({ key: 'ArrowDown' }, true), undefined);
  assert.equal(actionFor({ key: 'Escape' }, true), 'escape');
  assert.equal(actionFor({ key: '[', ctrlKey: true }, true), 'escape');
  assert.equal(actionFor({ key: 'k', ctrlKey: true }, true), 'search');
  assert.equal(actionFor({ key: 'p', altKey: true }, true), 'toggle_preview');
});

test('the table has each key once and a description for each action', () => {
  const seen = new Set<string>();
  for (const s of SHORTCUTS) {
    assert.ok(s.description.length > 0);
    for (const k of s.keys) {
      assert.ok(!seen.has(k), `duplicate key ${k}`);
      seen.add(k);
    }
  }
  assert.equal(formatKey('Ctrl+K'), 'Ctrl + K');
  assert.equal(formatKey('ArrowDown'), '↓');
  assert.equal(formatKey('Escape'), 'Esc');
});

test('+ toggles a thumbs up, as typed with Shift or on the number pad, and shows as a plus', () => {
  assert.equal(actionFor({ key: '+', code: 'Equal', shiftKey: true }, false), 'thumbs_up');
  assert.equal(actionFor({ key: '+', code: 'NumpadAdd' }, false), 'thumbs_up');
  assert.equal(actionFor({ key: '+', shiftKey: true }, true), undefined);
  assert.equal(formatKey('+'), '+');
  assert.equal(formatKey('Ctrl++'), 'Ctrl + +');
});
