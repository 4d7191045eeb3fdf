// The image viewer: a click on an image preview in a message opens it over the whole window,
// with its sender and time, links to the original and to download it, and the conversation's
// other images one arrow key away. Escape or the close button closes it, and focus goes back to
// the preview it was opened from.
import { signal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { store } from './context.ts';
import { conversationKey, locale } from './Message.tsx';
import { fullTimestamp } from '../lib/time.ts';
import './lightbox.css';

export interface LightboxImage {
  messageId: number;
  /** Which image of its message (a message may hold several). */
  nth: number;
  src: string;
  href: string;
}

const open = signal<{ images: LightboxImage[]; index: number; opener: HTMLElement | null } | null>(null);

/** Image previews (not videos or players) in rendered message HTML. */
const PREVIEW = '.message_inline_image:not(.message_inline_video):not(.youtube-video):not(.embed-video) > a';

function imagesOf(messageId: number, html: string): LightboxImage[] {
  if (!html.includes('message_inline_image')) return [];
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return [...doc.querySelectorAll<HTMLAnchorElement>(PREVIEW)].flatMap((a, nth) => {
    const img = a.querySelector('img');
    const src = img?.getAttribute('src');
    return src ? [{ messageId, nth, src, href: a.getAttribute('href') ?? src }] : [];
  });
}

/** The images of the clicked message's conversation that this client holds, oldest first. */
function conversationImages(messageId: number): LightboxImage[] {
  const m = store.messages.byId.get(messageId);
  if (!m) return [];
  const key = conversationKey(m);
  return [...store.messages.byId.values()]
    .filter((x) => x.id === messageId || conversationKey(x) === key)
    .sort((a, b) => a.id - b.id)
    .flatMap((x) => imagesOf(x.id, x.content));
}

/** Names each image preview of rendered content for what it does (its image is then decorative). */
export function labelPreviews(el: HTMLElement): void {
  for (const a of el.querySelectorAll<HTMLAnchorElement>(PREVIEW)) {
    if (a.hasAttribute('aria-haspopup')) continue;
    a.setAttribute('aria-label', `View image ${a.title || fileName(a.href)}`);
    a.setAttribute('aria-haspopup', 'dialog');
    a.querySelector('img')?.setAttribute('alt', '');
  }
}

/** Opens the viewer on a message's nth image; false when it has no such image. */
function openAt(messageId: number, nth: number, opener: HTMLElement | null): boolean {
  const images = conversationImages(messageId);
  const index = images.findIndex((i) => i.messageId === messageId && i.nth === nth);
  if (index < 0) return false;
  open.value = { images, index, opener };
  return true;
}

/** A click in a message's content: opens the viewer when it was on an image preview. */
export function lightboxClick(e: MouseEvent): boolean {
  const link = (e.target as HTMLElement).closest<HTMLAnchorElement>(PREVIEW);
  const article = link?.closest<HTMLElement>('article[data-id]');
  if (!link || !article || e.ctrlKey || e.metaKey || e.shiftKey) return false;
  if (!openAt(Number(article.dataset.id), [...article.querySelectorAll(PREVIEW)].indexOf(link), link)) return false;
  e.preventDefault();
  return true;
}

/** The `v` key: the selected message's first image. */
export function openLightboxFor(messageId: number): boolean {
  return openAt(messageId, 0, null);
}

/**
 * Closes the viewer if it is open (true). Also for the app's Escape key: the viewer takes the
 * focus once it is drawn, and an Escape pressed before that reaches the document's handler.
 */
export function closeLightbox(): boolean {
  if (open.peek() === null) return false;
  close();
  return true;
}

function close(): void {
  const o = open.peek();
  open.value = null;
  if (!o) return;
  // The preview may have been drawn again meanwhile: find it by its message and position.
  const current = o.images[o.index]!;
  const target = o.opener?.isConnected ? o.opener : document.querySelectorAll<HTMLElement>(`article[data-id="${current.messageId}"] ${PREVIEW}`)[current.nth];
  target?.focus();
}

let swipeFrom: number | null = null;

function move(by: number): void {
  const o = open.peek();
  if (!o) return;
  const index = o.index + by;
  if (index >= 0 && index < o.images.length) open.value = { ...o, index };
}

const fileName = (url: string): string => {
  try {
    return decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() || 'image');
  } catch {
    return 'image';
  }
};

export function Lightbox() {
  const ref = useRef<HTMLDivElement>(null);
  const o = open.value;
  // A layout effect: the focus moves in the same task that draws the viewer, not a frame later.
  useLayoutEffect(() => {
    if (o && !ref.current?.contains(document.activeElement)) ref.current?.querySelector<HTMLElement>('button[aria-label="Close"]')?.focus();
  }, [o !== null]);
  if (!o) return null;
  const image = o.images[o.index]!;
  const m = store.messages.byId.get(image.messageId);
  const name = fileName(image.href);
  const when = m ? fullTimestamp(m.timestamp, { twentyFourHour: store.settings.user.value.twenty_four_hour_time === true, locale: locale() }) : '';
  function onKeyDown(e: KeyboardEvent) {
    // Keys stay here: the message list's shortcuts wait until the viewer is closed.
    e.stopPropagation();
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowLeft') move(-1);
    else if (e.key === 'ArrowRight') move(1);
    else if (e.key === 'Tab') {
      const items = [...(ref.current?.querySelectorAll<HTMLElement>('a[href], button:not(:disabled)') ?? [])];
      const i = items.indexOf(document.activeElement as HTMLElement);
      const to = e.shiftKey && i <= 0 ? items.at(-1) : !e.shiftKey && i === items.length - 1 ? items[0] : undefined;
      if (to) {
        e.preventDefault();
        to.focus();
      }
    } else return;
    if (e.key !== 'Tab') e.preventDefault();
  }
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label="Image viewer" aria-describedby="lightbox-meta" ref={ref} onKeyDown={onKeyDown}>
      <div class="lightbox-bar">
        <p class="lightbox-meta" id="lightbox-meta">
          <strong>{m?.sender_full_name ?? ''}</strong> <span>{when}</span>
          {o.images.length > 1 && <span class="lightbox-count">{`Image ${o.index + 1} of ${o.images.length}`}</span>}
        </p>
        <a href={image.href} target="_blank" rel="noopener noreferrer">
          Open original
        </a>
        <a href={image.href} download={name}>
          Download
        </a>
        <button type="button" class="lightbox-close" aria-label="Close" title="Close (Esc)" onClick={close}>
          ×
        </button>
      </div>
      <div
        class="lightbox-stage"
        onClick={(e) => e.target === e.currentTarget && close()}
        onTouchStart={(e) => (swipeFrom = e.touches[0]?.clientX ?? null)}
        onTouchEnd={(e) => {
          // A horizontal swipe on a phone moves like the arrow keys.
          const dx = (e.changedTouches[0]?.clientX ?? 0) - (swipeFrom ?? NaN);
          swipeFrom = null;
          if (Math.abs(dx) > 50) move(dx < 0 ? 1 : -1);
        }}
      >
        <button type="button" class="lightbox-nav prev" aria-label="Previous image" title="Previous (←)" disabled={o.index === 0} onClick={() => move(-1)}>
          ‹
        </button>
        <img src={image.src} alt={name} />
        <button type="button" class="lightbox-nav next" aria-label="Next image" title="Next (→)" disabled={o.index === o.images.length - 1} onClick={() => move(1)}>
          ›
        </button>
      </div>
    </div>
  );
}
