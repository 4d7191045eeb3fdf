// Links: realm-relative rewriting, the result's links and uploads, and inline previews of
// images and videos (the reference's `message_inline_image` blocks), never inside quotes.
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { renderEnv } from './env.ts';
import { tag } from './html.ts';
import { relativeToRealm } from './urls.ts';

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
const VIDEO_EXTENSIONS = ['.mp4', '.webm'];
const PREVIEW_LIMIT = 24;

interface FoundLink {
  href: string;
  text: string;
  blockIndex: number; // index of the inline token in state.tokens
  open: Token;
  inQuote: boolean;
}

function uploadPath(href: string): string | undefined {
  if (href.startsWith('/user_uploads/')) return href;
  if (href.startsWith('user_uploads/')) return '/' + href;
  return undefined;
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://relative.invalid').pathname.toLowerCase();
  } catch {
    return '';
  }
}

function previewHtml(href: string, title: string | undefined, src: string, video: boolean): string {
  const media = video ? tag('video', { preload: 'metadata', src }, '') : tag('img', { src });
  return tag('div', { class: video ? 'message_inline_image message_inline_video' : 'message_inline_image' }, tag('a', { href, title }, media));
}

function linkPass(state: StateCore): void {
  const { ctx, result } = renderEnv(state.env);
  const found: FoundLink[] = [];
  let quoteDepth = 0;
  state.tokens.forEach((block, blockIndex) => {
    if (block.type === 'blockquote_open') quoteDepth++;
    else if (block.type === 'blockquote_close') quoteDepth--;
    if (block.type !== 'inline' || !block.children) return;
    const children = block.children;
    children.forEach((t, i) => {
      if (t.type !== 'link_open') return;
      const href = relativeToRealm(t.attrGet('href') ?? '', ctx.realmUrl);
      t.attrSet('href', href);
      const label = children[i + 1];
      const text = label?.type === 'text' && children[i + 2]?.type === 'link_close' ? label.content : '';
      found.push({ href, text, blockIndex, open: t, inQuote: quoteDepth > 0 });
    });
  });
  result.links = [...new Set(found.map((f) => f.href))];
  // Realm URLs become "user_uploads/..." (relative, as in the reference); both forms are uploads.
  result.uploadPaths = [...new Set(result.links.map(uploadPath).filter((p): p is string => p !== undefined))];
  const previewable = new Set(found.filter((f) => !f.inQuote).map((f) => f.href));
  if (previewable.size === 0 || previewable.size > PREVIEW_LIMIT) return;

  // Insertions are collected first and applied from the end so indexes stay valid.
  const inserts: { at: number; token: Token }[] = [];
  const removals = new Set<number>(); // block indexes of paragraphs to drop (open, inline, close)
  const done = new Set<string>();
  const afterParagraph = new Map<number, number>();
  for (const f of found) {
    if (f.inQuote || done.has(f.href)) continue;
    done.add(f.href);
    const path = pathOf(f.href);
    const video = VIDEO_EXTENSIONS.some((e) => path.endsWith(e));
    if (!video && !IMAGE_EXTENSIONS.some((e) => path.endsWith(e))) continue;
    const upload = uploadPath(f.href);
    const src = upload ?? ctx.externalImageUrl?.(f.href);
    if (src === undefined) continue;
    const urlIsText = f.text === '' || f.text === f.href;
    const token = new state.Token('zpreview', '', 0);
    token.content = previewHtml(f.href, urlIsText ? undefined : f.text, src, video);
    token.block = true;
    const inline = state.tokens[f.blockIndex] as Token;
    const pOpen = state.tokens[f.blockIndex - 1];
    const children = inline.children ?? [];
    if (pOpen?.hidden) {
      // A tight list item: the preview goes at the end of the item.
      let at = f.blockIndex + 2;
      while (at < state.tokens.length && !(state.tokens[at]?.type === 'list_item_close' && state.tokens[at]?.level === (pOpen.level ?? 0) - 1)) at++;
      inserts.push({ at, token });
      if (children[0] === f.open && children.length === 3 && urlIsText) children.splice(0, 3);
    } else {
      const at = afterParagraph.get(f.blockIndex) ?? f.blockIndex + 2;
      afterParagraph.set(f.blockIndex, at);
      inserts.push({ at, token });
      if (children.length === 3 && children[0] === f.open && urlIsText) removals.add(f.blockIndex);
    }
    if (!video) result.hasImage = true;
  }
  // One sweep from the end: every edit happens after (to the right of) the ones still to come.
  const ops = [
    ...inserts.map((ins, order) => ({ at: ins.at, order, token: ins.token as Token | undefined })),
    ...[...removals].map((idx) => ({ at: idx - 1, order: -1, token: undefined })),
  ].sort((a, b) => b.at - a.at || b.order - a.order);
  for (const op of ops) {
    if (op.token) state.tokens.splice(op.at, 0, op.token);
    else state.tokens.splice(op.at, 3);
  }
}

export function installLinkPass(md: MarkdownIt): void {
  md.core.ruler.push('z_links', linkPass);
  md.renderer.rules['zpreview'] = (tokens, idx) => tokens[idx]?.content ?? '';
}
