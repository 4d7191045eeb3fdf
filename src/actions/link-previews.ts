// Website previews of a message's links, added after it was sent (or edited): the request is
// answered at once, the pages are fetched here in the background, and the message is then
// rendered again with what they gave and updated by a rendering-only `update_message` event, as
// the reference's embed_links worker does. The update is an action like any other, so its event
// reaches every process's clients; a message edited or deleted meanwhile is left alone.
import type { AppContext } from '../context.ts';
import { lockMessage, messageHolders, updateMessage } from '../db/queries/edit.ts';
import { realmById } from '../db/queries/realms.ts';
import { userById } from '../db/queries/users.ts';
import { flagNames } from '../db/flags.ts';
import { LIMITS } from '../lib/limits.ts';
import type { EmbedData } from '../lib/markdown/types.ts';
import { messageAudience } from '../lib/message-audience.ts';
import { renderMessage } from '../lib/message-render.ts';
import { realmUrl } from '../lib/realm.ts';
import { fetchEmbedData } from '../lib/url-preview.ts';
import type { UpdateMessageEvent } from '../events/event-types/update_message.ts';
import { runAction } from './action.ts';

export interface PreviewJob {
  messageId: number;
  /** The content the links came from; the update is dropped if the message changed since. */
  content: string;
  urls: readonly string[];
}

/** Starts fetching previews for a message; returns at once. `app.previews` holds the work. */
export function queueLinkPreviews(app: AppContext, job: PreviewJob): void {
  if (job.urls.length === 0) return;
  const work = app.fetchSlots.previews.run(() => fetchAndUpdate(app, job)).catch((err: unknown) => app.log.warn({ err, messageId: job.messageId }, 'link preview failed'));
  app.previews.add(work);
  void work.finally(() => app.previews.delete(work));
}

// What each URL gave lately, per process: a link posted again (or a message edited twice) is
// not fetched again, as the reference caches its previews. Oldest entries go first.
const caches = new WeakMap<AppContext, Map<string, { at: number; data: EmbedData | null }>>();

async function cachedEmbedData(app: AppContext, url: string): Promise<EmbedData | null> {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new Map()));
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < LIMITS.linkPreviewCacheSeconds * 1000) return hit.data;
  const data = await fetchEmbedData(url, { timeoutMs: LIMITS.linkPreviewTimeoutMs, maxBytes: LIMITS.linkPreviewMaxBytes, allowPrivate: app.config.previewAllowPrivate });
  cache.delete(url);
  cache.set(url, { at: Date.now(), data });
  if (cache.size > LIMITS.linkPreviewCacheEntries) cache.delete(cache.keys().next().value!);
  return data;
}

async function fetchAndUpdate(app: AppContext, job: PreviewJob): Promise<void> {
  const embedData = new Map<string, EmbedData | null>();
  const fetched = job.urls.slice(0, LIMITS.linkPreviewMaxLinks);
  const results = await Promise.all(fetched.map((url) => cachedEmbedData(app, url)));
  fetched.forEach((url, i) => embedData.set(url, results[i] ?? null));
  // Links beyond the limit are not fetched: rendered as having nothing to preview.
  for (const url of job.urls) if (!embedData.has(url)) embedData.set(url, null);
  await doUpdateEmbeddedData(app, job, embedData);
}

/** Renders the message again with the fetched previews and tells its audience. */
export async function doUpdateEmbeddedData(app: AppContext, job: PreviewJob, embedData: ReadonlyMap<string, EmbedData | null>): Promise<void> {
  await runAction(app, async (scope) => {
    const message = await lockMessage(scope.tx, job.messageId, scope.dialect);
    if (!message || message.content !== job.content) return;
    const realm = await realmById(scope.tx, message.realm_id);
    const sender = realm ? await userById(scope.tx, realm.id, message.sender_id) : undefined;
    if (!realm || !sender) return;
    const url = realmUrl(app.config, realm);
    const { result } = await renderMessage(scope.tx, realm, url, message.content, sender, { imageProxyKey: app.imageProxyKey, embedData });
    if (result.html === message.rendered_content) return;
    await updateMessage(scope.tx, message.id, { rendered_content: result.html, has_image: result.hasImage ? 1 : 0 });
    const event: UpdateMessageEvent = {
      type: 'update_message',
      user_id: null,
      edit_timestamp: scope.now,
      message_id: message.id,
      message_ids: [message.id],
      content: message.content,
      rendered_content: result.html,
      rendering_only: true,
    };
    const flags = await messageHolders(scope.tx, message.id);
    const byFlags = new Map<string, number[]>();
    for (const u of await messageAudience(scope.tx, [message])) {
      const f = flags.get(u);
      const key = JSON.stringify(f === undefined ? ['read', 'historical'] : flagNames(f));
      byFlags.set(key, [...(byFlags.get(key) ?? []), u]);
    }
    for (const [key, users] of byFlags) scope.emit({ ...event, flags: JSON.parse(key) as string[] }, users);
  });
}
