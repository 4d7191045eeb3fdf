// Links: realm-relative rewriting, the result's links and uploads, and inline previews of
// images and videos (the reference's `message_inline_image` blocks), YouTube thumbnails and
// website previews from fetched embed data; never inside quotes.
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { renderEnv } from './env.ts';
import { embedPreview, inlinePreview, vimeoId, youtubeId, youtubeThumbnail } from './previews.ts';
import { relativeToRealm } from './urls.ts';

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
const VIDEO_EXTENSIONS = ['.mp4', '.webm'];
const PREVIEW_LIMIT = 24;

interface FoundLink {
  href: string;
  text: string;
  label: Token | undefined; // the link's only text token, when it has exactly one
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

/** A link to this server (relative, or on the realm's host): no website preview. */
function isOwnServer(href: string, realmUrl: string): boolean {
  try {
    return new URL(href).host === new URL(realmUrl).host;
  } catch {
    return true;
  }
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
      const next = children[i + 1];
      const label = next?.type === 'text' && children[i + 2]?.type === 'link_close' ? next : undefined;
      found.push({ href, text: label?.content ?? '', label, blockIndex, open: t, inQuote: quoteDepth > 0 });
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
  const block = (html: string): Token => {
    const token = new state.Token('zpreview', '', 0);
    token.content = html;
    token.block = true;
    return token;
  };
  // After the link's paragraph (after earlier previews of it), or at the end of its list item;
  // the paragraph or item text goes when it was nothing but the bare link.
  const place = (f: FoundLink, html: string, removeBareLink: boolean): void => {
    const token = block(html);
    const inline = state.tokens[f.blockIndex] as Token;
    const pOpen = state.tokens[f.blockIndex - 1];
    const children = inline.children ?? [];
    if (pOpen?.hidden) {
      let at = f.blockIndex + 2;
      while (at < state.tokens.length && !(state.tokens[at]?.type === 'list_item_close' && state.tokens[at]?.level === (pOpen.level ?? 0) - 1)) at++;
      inserts.push({ at, token });
      if (removeBareLink && children[0] === f.open && children.length === 3) children.splice(0, 3);
    } else {
      const at = afterParagraph.get(f.blockIndex) ?? f.blockIndex + 2;
      afterParagraph.set(f.blockIndex, at);
      inserts.push({ at, token });
      if (removeBareLink && children.length === 3 && children[0] === f.open) removals.add(f.blockIndex);
    }
  };
  const proxied = ctx.externalImageUrl;
  for (const f of found) {
    if (f.inQuote || done.has(f.href)) continue;
    done.add(f.href);
    const urlIsText = f.text === '' || f.text === f.href;
    const title = urlIsText ? undefined : f.text;
    const path = pathOf(f.href);
    const video = !ctx.imagePreviewsOff && VIDEO_EXTENSIONS.some((e) => path.endsWith(e));
    const image = !ctx.imagePreviewsOff && IMAGE_EXTENSIONS.some((e) => path.endsWith(e));
    if (video || image) {
      // Our own files load directly; external ones only through the image proxy. "/\host" is
      // another host to browsers, as "//host" is.
      const own = /^\/(?![/\\])/.test(f.href);
      const src = uploadPath(f.href) ?? (own ? f.href : /^https?:\/\//i.test(f.href) ? proxied?.(f.href) : undefined);
      if (src === undefined) continue;
      place(f, inlinePreview(video ? 'video' : 'image', f.href, src, { title }), urlIsText);
      if (!video) result.hasImage = true;
      continue;
    }
    if (isOwnServer(f.href, ctx.realmUrl)) continue;
    const youtube = ctx.imagePreviewsOff ? undefined : youtubeId(f.href);
    if (youtube !== undefined && proxied) {
      // The link stays: the thumbnail is shown next to it, not instead of it.
      place(f, inlinePreview('youtube', f.href, proxied(youtubeThumbnail(youtube)), { dataId: youtube }), false);
      result.hasImage = true;
    }
    if (!ctx.urlEmbedPreview) continue;
    const data = ctx.embedData?.get(f.href);
    if (data === undefined) {
      result.linksForPreview.push(f.href);
      continue;
    }
    if (data === null) continue;
    // A bare link to a video host shows the video's title instead of the URL.
    const retitle = (prefix: string): void => {
      if (data.title && urlIsText && f.label) f.label.content = `${prefix} - ${data.title}`;
    };
    if (youtube !== undefined) {
      retitle('YouTube');
      continue;
    }
    const html = proxied ? embedPreview(f.href, data, proxied) : undefined;
    if (html !== undefined) {
      // Website previews go at the end of the message.
      inserts.push({ at: state.tokens.length, token: block(html) });
      if (data.oembed !== undefined) result.hasImage = true;
    }
    if (vimeoId(f.href) !== undefined) retitle('Vimeo');
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
