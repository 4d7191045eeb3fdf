// The server's own image emoji (`service_extra_emoji` in the API): the Parley logo as `:parley:`,
// where the reference has its logo as `:zulip:`. Its image is served by Parley itself, at a path
// shaped like the reference's; the path is relative, so rendered messages stay portable.
import fs from 'node:fs';

export const SERVICE_EMOJI_PATH = '/static/generated/emoji/images/emoji/unicode/';

/** Name -> image URL of each server emoji, as the Markdown renderer takes them. */
export const SERVICE_EXTRA_EMOJI: Readonly<Record<string, string>> = { parley: `${SERVICE_EMOJI_PATH}parley.svg` };

export const isServiceEmoji = (name: string): boolean => Object.hasOwn(SERVICE_EXTRA_EMOJI, name);

let svg: Buffer | undefined;
/** The logo's SVG (resources/parley-emoji.svg), read once. */
export function serviceEmojiImage(): Buffer {
  svg ??= fs.readFileSync(new URL('../../resources/parley-emoji.svg', import.meta.url));
  return svg;
}
