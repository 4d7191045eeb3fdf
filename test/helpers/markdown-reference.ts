// Locating the reference fixtures and the context the reference's own fixture run uses.
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plainContext } from '../../src/lib/markdown/index.ts';
import type { MarkdownContext, MentionableUser } from '../../src/lib/markdown/types.ts';

export interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
}
export type LinkifyCase = [input: string, template: string, url: string];

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILE = 'zulip-markdown-test-cases.json';

export function referenceFixtures(): { regular: RegularCase[]; linkify: LinkifyCase[] } | undefined {
  const dirs = [process.env['PARLEY_REFERENCE_DIR'], join(repo, '../shared/reference'), '/work/shared/reference'];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, FILE))) {
      const data = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as { regular_tests: RegularCase[]; linkify_tests: LinkifyCase[] };
      return { regular: data.regular_tests, linkify: data.linkify_tests };
    }
  }
  return undefined;
}

// The reference's test realm: its URL, the user the fixtures mention, its server emoji, and its
// test image proxy (key "dummy").
export function referenceContext(translateEmoticons = false): MarkdownContext {
  const zoe: MentionableUser = { id: 7, fullName: 'Zoe', email: 'zoe@example.com', isActive: true };
  return {
    ...plainContext('http://zulip.testserver'),
    userById: (id) => (id === zoe.id ? zoe : undefined),
    userByName: (name) => (name.toLowerCase() === 'zoe' ? zoe : undefined),
    translateEmoticons,
    extraEmoji: { zulip: '/static/generated/emoji/images/emoji/unicode/zulip.png' },
    externalImageUrl: (url) =>
      'https://external-content.zulipcdn.net/external_content/' +
      createHmac('sha1', 'dummy').update(url).digest('hex') + '/' + Buffer.from(url, 'utf8').toString('hex'),
  };
}

export function normalize(html: string): string {
  return html.replace(/\s+/g, ' ').replace(/> </g, '><').trim();
}

// The linkify fixtures give a template with %s for the expected link.
export function linkifyExpected([, template, url]: LinkifyCase): string {
  if (!template.includes('%s')) return template;
  const href = url.startsWith('http') ? url : url.includes('@') ? 'mailto:' + url : 'http://' + url;
  return template.replace('%s', `<a href="${href}">${url}</a>`);
}
