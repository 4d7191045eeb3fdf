// The contract between the Markdown renderer and its callers (sending, editing, stream
// descriptions, profile fields). The renderer is synchronous and pure: callers preload what a
// message refers to (see `collectReferences`) and pass it in through `MarkdownContext`.

export interface MentionableUser {
  id: number;
  fullName: string;
  email: string;
  isActive: boolean;
}

export interface MentionableGroup {
  id: number;
  name: string;
}

export interface LinkableStream {
  id: number;
  name: string;
}

export interface RealmEmoji {
  id: string; // the custom emoji's ID, as a string
  name: string;
  sourceUrl: string;
  deactivated: boolean;
}

export interface Linkifier {
  id: number;
  pattern: string;
  urlTemplate: string; // RFC 6570 level-1 template, e.g. "https://tracker.example/{id}"
}

export interface MarkdownContext {
  realmUrl: string; // e.g. "http://localhost:9991"
  // Lookups over data the caller preloaded; return undefined when not found.
  userByName(fullName: string): MentionableUser | undefined; // case-insensitive
  userById(id: number): MentionableUser | undefined;
  groupByName(name: string): MentionableGroup | undefined;
  streamByName(name: string): LinkableStream | undefined;
  streamById(id: number): LinkableStream | undefined;
  realmEmoji(name: string): RealmEmoji | undefined;
  linkifiers: readonly Linkifier[];
  // Optional parts. Absent means off.
  translateEmoticons?: boolean; // the sender's setting: ":)" -> :smile:
  // Rewrites an external image URL for an inline preview (an image proxy); when absent, only
  // images on this server (/user_uploads/...) get previews, so clients never hotlink.
  externalImageUrl?: (url: string) => string;
  extraEmoji?: Readonly<Record<string, string>>; // server-wide image emoji: name -> image URL
  // The realm's inline_image_preview turned off: no image, video or YouTube previews at all.
  imagePreviewsOff?: boolean;
  // Website previews (the realm's inline_url_embed_preview, for messages of people, not bots).
  // Links with no entry in `embedData` are listed in `linksForPreview` for fetching; an entry of
  // null means the link was fetched and has nothing to preview.
  urlEmbedPreview?: boolean;
  embedData?: ReadonlyMap<string, EmbedData | null>;
}

// What a fetch of a linked page found (the reference's UrlEmbedData / UrlOEmbedData).
export interface EmbedData {
  title?: string | undefined;
  description?: string | undefined;
  image?: string | undefined; // absolute URL
  oembed?: 'photo' | 'video' | undefined; // an oEmbed result of a known provider
  html?: string | undefined; // oEmbed video: the provider's player markup
}

export type WildcardMention = 'stream' | 'topic' | null;

export interface RenderResult {
  html: string;
  mentionedUserIds: number[]; // direct, non-silent @**user** mentions
  mentionedGroupIds: number[]; // non-silent @*group* mentions (the caller expands members)
  wildcard: WildcardMention; // 'stream' for @**all**/@**everyone**/@**channel**/@**stream**, 'topic' for @**topic**
  isMeMessage: boolean;
  links: string[]; // URLs of links in the output (has:link)
  uploadPaths: string[]; // "/user_uploads/..." paths linked (attachments)
  hasImage: boolean; // an inline image preview was produced (has:image)
  linksForPreview: string[]; // links whose website preview is still to be fetched
}

export interface References {
  userNames: string[];
  userIds: number[];
  groupNames: string[];
  streamNames: string[];
  streamIds: number[];
  emojiNames: string[];
}
