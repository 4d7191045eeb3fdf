import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectReferences, plainContext, renderMarkdown, topicLinks } from '../../../src/lib/markdown/index.ts';
import type { MarkdownContext, MentionableUser } from '../../../src/lib/markdown/types.ts';

const users: MentionableUser[] = [
  { id: 10, fullName: 'Ada Lovelace', email: 'ada@example.com', isActive: true },
  { id: 11, fullName: 'Old Timer', email: 'old@example.com', isActive: false },
];
const ctx: MarkdownContext = {
  ...plainContext('https://chat.example'),
  userByName: (n) => users.find((u) => u.fullName.toLowerCase() === n.toLowerCase()),
  userById: (id) => users.find((u) => u.id === id),
  groupByName: (n) => (n === 'backend' ? { id: 3, name: 'backend' } : undefined),
  streamByName: (n) => (n === 'dev team' ? { id: 5, name: 'dev team' } : undefined),
  streamById: (id) => (id === 5 ? { id: 5, name: 'dev team' } : undefined),
  realmEmoji: (n) => (n === 'parrot' ? { id: '1', name: 'parrot', sourceUrl: '/user_avatars/1/emoji/parrot.gif', deactivated: false } : undefined),
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/issues/{id}' }],
};

test('a user mention renders a span and notifies the user', () => {
  const r = renderMarkdown('hi @**Ada Lovelace**', ctx);
  assert.equal(r.html, '<p>hi <span class="user-mention" data-user-id="10">@Ada Lovelace</span></p>');
  assert.deepEqual(r.mentionedUserIds, [10]);
});

test('a silent mention, a mention by id and an inactive user do not notify', () => {
  const r = renderMarkdown('@_**Ada Lovelace** @**|10** @**Old Timer**', ctx);
  assert.match(r.html, /<span class="user-mention silent" data-user-id="10">Ada Lovelace<\/span>/);
  assert.match(r.html, /<span class="user-mention" data-user-id="10">@Ada Lovelace<\/span>/);
  assert.match(r.html, /<span class="user-mention silent" data-user-id="11">Old Timer<\/span>/);
  assert.deepEqual(r.mentionedUserIds, [10]);
});

test('a mention inside a quote is silent', () => {
  const r = renderMarkdown('> @**Ada Lovelace** said', ctx);
  assert.match(r.html, /user-mention silent/);
  assert.deepEqual(r.mentionedUserIds, []);
});

test('an unknown name stays text', () => {
  assert.equal(renderMarkdown('@**Nobody**', ctx).html, '<p>@<strong>Nobody</strong></p>');
});

test('wildcard mentions set the wildcard flag', () => {
  for (const w of ['all', 'everyone', 'channel', 'stream']) {
    const r = renderMarkdown(`@**${w}**`, ctx);
    assert.equal(r.wildcard, 'stream');
    assert.equal(r.html, `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`);
  }
  const topic = renderMarkdown('@**topic**', ctx);
  assert.equal(topic.wildcard, 'topic');
  assert.equal(topic.html, '<p><span class="topic-mention">@topic</span></p>');
  assert.equal(renderMarkdown('@_**all**', ctx).wildcard, null);
});

test('group mentions', () => {
  const r = renderMarkdown('@*backend* and @_*backend*', ctx);
  assert.equal(r.html, '<p><span class="user-group-mention" data-user-group-id="3">@backend</span> and <span class="user-group-mention silent" data-user-group-id="3">backend</span></p>');
  assert.deepEqual(r.mentionedGroupIds, [3]);
});

test('stream, topic and message links', () => {
  assert.equal(renderMarkdown('#**dev team**', ctx).html, '<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-dev-team">#dev team</a></p>');
  assert.equal(renderMarkdown('#**dev team>v1.0 release**', ctx).html,
    '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-dev-team/topic/v1.2E0.20release">#dev team &gt; v1.0 release</a></p>');
  assert.equal(renderMarkdown('#**dev team>bugs@42**', ctx).html,
    '<p><a class="message-link" href="/#narrow/channel/5-dev-team/topic/bugs/near/42">#dev team &gt; bugs @ 💬</a></p>');
  assert.equal(renderMarkdown('#**nowhere**', ctx).html, '<p>#<strong>nowhere</strong></p>');
});

test('custom emoji and unicode emoji', () => {
  assert.equal(renderMarkdown(':parrot:', ctx).html, '<p><img alt=":parrot:" class="emoji" src="/user_avatars/1/emoji/parrot.gif" title="parrot"></p>');
  assert.equal(renderMarkdown('👍', ctx).html, '<p><span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>');
});

test('linkifiers turn patterns into links', () => {
  const r = renderMarkdown('see #123, not a#5', ctx);
  assert.equal(r.html, '<p>see <a href="https://tracker.example/issues/123">#123</a>, not a#5</p>');
  assert.deepEqual(r.links, ['https://tracker.example/issues/123']);
});

test('topic links use linkifiers and web links', () => {
  assert.deepEqual(topicLinks('fix #12 see example.com/x', ctx.linkifiers), [
    { text: '#12', url: 'https://tracker.example/issues/12' },
    { text: 'example.com/x', url: 'https://example.com/x' },
  ]);
});

test('/me messages', () => {
  assert.equal(renderMarkdown('/me waves', ctx).isMeMessage, true);
  assert.equal(renderMarkdown('/me waves\nagain', ctx).isMeMessage, false);
  assert.equal(renderMarkdown('hi /me', ctx).isMeMessage, false);
});

test('uploaded images get a preview; external ones only through a proxy', () => {
  // A full realm URL becomes relative, without the leading slash, as in the reference.
  const r = renderMarkdown('[cat.png](https://chat.example/user_uploads/2/ab/cat.png)', ctx);
  assert.equal(r.html, '<p><a href="user_uploads/2/ab/cat.png">cat.png</a></p>\n<div class="message_inline_image"><a href="user_uploads/2/ab/cat.png" title="cat.png"><img src="/user_uploads/2/ab/cat.png"></a></div>');
  assert.deepEqual(r.uploadPaths, ['/user_uploads/2/ab/cat.png']);
  assert.equal(r.hasImage, true);
  const ext = renderMarkdown('https://img.example/a.png', ctx);
  assert.equal(ext.hasImage, false);
  assert.equal(ext.html, '<p><a href="https://img.example/a.png">https://img.example/a.png</a></p>');
});

test('code blocks carry the language and Pygments classes', () => {
  const html = renderMarkdown('```js\nconst x = 1;\n```', ctx).html;
  assert.match(html, /^<div class="codehilite" data-code-language="JavaScript"><pre><span><\/span><code><span class="k">const<\/span>/);
});

test('spoilers and quote fences', () => {
  assert.equal(renderMarkdown('```spoiler Plot\nhe dies\n```', ctx).html,
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>he dies</p>\n</div></div>');
  assert.equal(renderMarkdown('```quote\nhi\n```', ctx).html, '<blockquote>\n<p>hi</p>\n</blockquote>');
});

test('collectReferences finds what to preload', () => {
  const refs = collectReferences('@**Ada Lovelace** @_**x|12** @*backend* #**dev team>t** :parrot: `@**in code**`');
  assert.deepEqual(refs.userNames.sort(), ['Ada Lovelace', 'in code']);
  assert.deepEqual(refs.userIds, [12]);
  assert.deepEqual(refs.groupNames, ['backend']);
  assert.deepEqual(refs.streamNames, ['dev team']);
  assert.deepEqual(refs.emojiNames, ['parrot']);
});

test('plainContext renders descriptions', () => {
  assert.equal(renderMarkdown('**Welcome** to https://example.com', plainContext('https://chat.example')).html,
    '<p><strong>Welcome</strong> to <a href="https://example.com">https://example.com</a></p>');
});
