// @**user**, @_**silent**, @*group*, wildcards, and #**stream**, #**stream>topic**, #**stream>topic@id**.
import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { mentionMayStartAfter, renderEnv } from './env.ts';
import { escapeHtml, tag } from './html.ts';
import { encodeStream, hashUtilEncode } from './urls.ts';

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARD = 'topic';
const EMPTY_TOPIC_NAME = 'general chat';

export interface MentionMeta {
  kind: 'user' | 'group' | 'stream-wildcard' | 'topic-wildcard';
  id: number | undefined;
  name: string;
  silent: boolean;
}

function closeOf(src: string, from: number, marker: string, max: number): number {
  const close = src.indexOf(marker, from);
  return close < 0 || close + marker.length > max ? -1 : close;
}

function mention(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  if (src[pos] !== '@' || !mentionMayStartAfter(src[pos - 1])) return false;
  let p = pos + 1;
  const isSilent = src[p] === '_';
  if (isSilent) p++;
  if (src[p] !== '*') return false;
  const { ctx } = renderEnv(state.env);
  let meta: MentionMeta | undefined;
  let end: number;
  if (src[p + 1] === '*') {
    const close = closeOf(src, p + 2, '**', state.posMax);
    if (close <= p + 2 || src.slice(p + 2, close).includes('*')) return false;
    end = close + 2;
    const name = src.slice(p + 2, close);
    if (STREAM_WILDCARDS.has(name)) meta = { kind: 'stream-wildcard', id: undefined, name, silent: isSilent };
    else if (name === TOPIC_WILDCARD) meta = { kind: 'topic-wildcard', id: undefined, name, silent: isSilent };
    else {
      const byId = /^(.+)?\|(\d+)$/.exec(name);
      let user = byId ? ctx.userById(Number(byId[2])) : ctx.userByName(name);
      if (user && byId?.[1] !== undefined && user.fullName !== byId[1]) user = undefined;
      if (!user) return false;
      meta = { kind: 'user', id: user.id, name: user.fullName, silent: isSilent || !user.isActive };
    }
  } else {
    const close = closeOf(src, p + 1, '*', state.posMax);
    if (close <= p + 1) return false;
    end = close + 1;
    const group = ctx.groupByName(src.slice(p + 1, close));
    if (!group) return false;
    meta = { kind: 'group', id: group.id, name: group.name, silent: isSilent };
  }
  if (!silent) state.push('z_mention', '', 0).meta = meta;
  state.pos = end;
  return true;
}

function streamLink(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const pos = state.pos;
  if (!src.startsWith('#**', pos) || !mentionMayStartAfter(src[pos - 1])) return false;
  const close = closeOf(src, pos + 3, '**', state.posMax);
  if (close <= pos + 3) return false;
  const body = src.slice(pos + 3, close);
  if (body.includes('*')) return false;
  const { ctx } = renderEnv(state.env);
  const withTopic = /^([^>]+)>(.*?)(?:@(\d+))?$/s.exec(body);
  const streamName = withTopic ? (withTopic[1] ?? '') : body;
  const stream = ctx.streamByName(streamName);
  if (!stream) return false;
  if (!silent) {
    const base = `/#narrow/channel/${encodeStream(stream.id, streamName)}`;
    let html: string;
    if (!withTopic) {
      html = tag('a', { class: 'stream', 'data-stream-id': String(stream.id), href: base }, escapeHtml('#' + streamName));
    } else {
      const topic = withTopic[2] ?? '';
      const messageId = withTopic[3];
      const topicHtml = topic === '' ? `<em>${EMPTY_TOPIC_NAME}</em>` : escapeHtml(topic);
      const text = escapeHtml(`#${streamName} > `) + topicHtml;
      const href = `${base}/topic/${hashUtilEncode(topic)}`;
      html = messageId
        ? tag('a', { class: 'message-link', href: `${href}/near/${messageId}` }, text + ' @ 💬')
        : tag('a', { class: 'stream-topic', 'data-stream-id': String(stream.id), href }, text);
    }
    state.push('zhtml', '', 0).content = html;
  }
  state.pos = close + 2;
  return true;
}

export function renderMention(meta: MentionMeta): string {
  const prefix = meta.silent ? '' : '@';
  const cls = (base: string): string => (meta.silent ? base + ' silent' : base);
  switch (meta.kind) {
    case 'user':
      return tag('span', { class: cls('user-mention'), 'data-user-id': String(meta.id) }, escapeHtml(prefix + meta.name));
    case 'group':
      return tag('span', { class: cls('user-group-mention'), 'data-user-group-id': String(meta.id) }, escapeHtml(prefix + meta.name));
    case 'stream-wildcard':
      return tag('span', { class: cls('user-mention channel-wildcard-mention'), 'data-user-id': '*' }, escapeHtml(prefix + meta.name));
    case 'topic-wildcard':
      return tag('span', { class: cls('topic-mention') }, escapeHtml(prefix + meta.name));
  }
}

// Mentions inside quotes are silent (quoting a mention must not notify again); the rest are
// collected into the result.
function collectMentions(state: StateCore): void {
  const { result } = renderEnv(state.env);
  const users = new Set<number>();
  const groups = new Set<number>();
  let quoteDepth = 0;
  for (const block of state.tokens) {
    if (block.type === 'blockquote_open') quoteDepth++;
    else if (block.type === 'blockquote_close') quoteDepth--;
    if (block.type !== 'inline' || !block.children) continue;
    for (const t of block.children as Token[]) {
      if (t.type !== 'z_mention') continue;
      const meta = t.meta as MentionMeta;
      if (quoteDepth > 0) meta.silent = true;
      if (meta.silent) continue;
      if (meta.kind === 'user' && meta.id !== undefined) users.add(meta.id);
      else if (meta.kind === 'group' && meta.id !== undefined) groups.add(meta.id);
      else if (meta.kind === 'stream-wildcard') result.wildcard = 'stream';
      else if (meta.kind === 'topic-wildcard' && result.wildcard === null) result.wildcard = 'topic';
    }
  }
  result.mentionedUserIds = [...users];
  result.mentionedGroupIds = [...groups];
}

export function installMentions(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'z_mention', mention);
  md.inline.ruler.before('link', 'z_stream', streamLink);
  md.core.ruler.push('z_mentions', collectMentions);
  md.renderer.rules['z_mention'] = (tokens, idx) => renderMention(tokens[idx]?.meta as MentionMeta);
}
