// Linkifiers as the API shows them, and as the Markdown renderer takes them.
import type { LinkifierRow } from '../db/queries/linkifiers.ts';
import type { Linkifier } from '../lib/markdown/types.ts';

export interface LinkifierJson {
  id: number;
  pattern: string;
  url_template: string;
}

export const presentLinkifier = (row: LinkifierRow): LinkifierJson => ({ id: row.id, pattern: row.pattern, url_template: row.url_template });

export const markdownLinkifier = (row: LinkifierRow): Linkifier => ({ id: row.id, pattern: row.pattern, urlTemplate: row.url_template });
