// Renders message content (and other Markdown of the realm) with the realm's users, groups,
// streams, custom emoji and linkifiers, and works out whom a message mentions.
import type { Conn, Tx } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import {
  groupMemberIds,
  groupsByNames,
  realmEmojiByNames,
  realmLinkifiers,
  streamsByNames,
  usersByNamesOrIds,
} from '../db/queries/render-refs.ts';
import { imageProxyUrl } from './image-proxy.ts';
import { collectReferences, renderMarkdown, topicLinks, type EmbedData, type Linkifier, type MarkdownContext, type RenderResult } from './markdown/index.ts';
import { realmSettings } from './realm.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from './settings-registry.ts';
import { SERVICE_EXTRA_EMOJI } from './service-emoji.ts';

type Q = Conn | Tx;

export const realmEmojiUrl = (realmUrl: string, realmId: number, fileName: string): string => `${realmUrl}/user_avatars/${realmId}/emoji/images/${fileName}`;

export async function loadLinkifiers(db: Q, realmId: number): Promise<Linkifier[]> {
  return (await realmLinkifiers(db, realmId)).map((l) => ({ id: l.id, pattern: l.pattern, urlTemplate: l.url_template }));
}

export async function markdownContext(db: Q, realm: Realm, realmUrl: string, content: string, sender?: User): Promise<MarkdownContext> {
  const refs = collectReferences(content);
  const users = await usersByNamesOrIds(db, realm.id, refs.userNames, refs.userIds);
  const groups = await groupsByNames(db, realm.id, refs.groupNames);
  const streams = await streamsByNames(db, realm.id, refs.streamNames);
  const emoji = await realmEmojiByNames(db, realm.id, refs.emojiNames);
  const linkifiers = await loadLinkifiers(db, realm.id);
  const mentionable = users.map((u) => ({ id: u.id, fullName: u.full_name, email: u.email, isActive: u.is_active === 1 }));
  // Private streams are linked only by name lookups the sender could make; names are not secret
  // to their subscribers, and the reference links them for everyone, so keep it simple.
  const linkable = streams.map((s) => ({ id: s.id, name: s.name }));
  let translateEmoticons = false;
  if (sender) {
    translateEmoticons = parseSettings(USER_SETTING_DEFAULTS, sender.settings).translate_emoticons === true;
  }
  return {
    realmUrl,
    userByName: (name) => mentionable.find((u) => u.fullName.toLowerCase() === name.toLowerCase()),
    userById: (id) => mentionable.find((u) => u.id === id),
    groupByName: (name) => {
      const g = groups.find((x) => x.name === name);
      return g ? { id: g.id, name: g.name } : undefined;
    },
    streamByName: (name) => linkable.find((s) => s.name.toLowerCase() === name.toLowerCase()),
    streamById: (id) => linkable.find((s) => s.id === id),
    realmEmoji: (name) => {
      const e = emoji.find((x) => x.name === name);
      return e ? { id: String(e.id), name: e.name, sourceUrl: realmEmojiUrl(realmUrl, realm.id, e.file_name), deactivated: e.deactivated === 1 } : undefined;
    },
    linkifiers,
    translateEmoticons,
    extraEmoji: SERVICE_EXTRA_EMOJI,
  };
}

export interface MessageRenderOptions {
  /** Signs the image proxy URLs of external images (AppContext.imageProxyKey). */
  imageProxyKey: string;
  /** Website previews fetched so far, by URL (null: nothing to preview). */
  embedData?: ReadonlyMap<string, EmbedData | null>;
}

export interface RenderedMessage {
  result: RenderResult;
  /** Users mentioned directly or through a mentioned group. */
  mentionedUserIds: Set<number>;
  /** The realm's linkifiers the content was rendered with (a topic's links use the same). */
  linkifiers: readonly Linkifier[];
}

export async function renderMessage(db: Q, realm: Realm, realmUrl: string, content: string, sender: User, opts: MessageRenderOptions): Promise<RenderedMessage> {
  const settings = realmSettings(realm);
  const ctx: MarkdownContext = {
    ...(await markdownContext(db, realm, realmUrl, content, sender)),
    externalImageUrl: (url) => imageProxyUrl(opts.imageProxyKey, url),
    imagePreviewsOff: !settings.inline_image_preview,
    // As the reference: messages of bots get no website previews.
    urlEmbedPreview: settings.inline_url_embed_preview && sender.is_bot !== 1,
    embedData: opts.embedData,
  };
  const result = renderMarkdown(content, ctx);
  const mentioned = new Set(result.mentionedUserIds);
  if (result.mentionedGroupIds.length > 0) for (const id of await groupMemberIds(db, realm.id, result.mentionedGroupIds)) mentioned.add(id);
  return { result, mentionedUserIds: mentioned, linkifiers: ctx.linkifiers };
}

/** Markdown outside messages (stream descriptions): links and emoji, no mentions of people. */
export async function renderDescription(db: Q, realm: Realm, realmUrl: string, text: string): Promise<string> {
  if (text.trim() === '') return '';
  const ctx = await markdownContext(db, realm, realmUrl, text);
  return renderMarkdown(text, ctx).html;
}

export async function messageTopicLinks(db: Q, realmId: number, topic: string): Promise<{ text: string; url: string }[]> {
  if (topic === '') return [];
  return topicLinks(topic, await loadLinkifiers(db, realmId));
}
