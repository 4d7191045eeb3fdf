// Linkifiers as the API shows them (the Markdown renderer's shape is in lib/realm-markdown.ts).
import type { LinkifierRow } from '../db/queries/linkifiers.ts';

export interface LinkifierJson {
  id: number;
  pattern: string;
  url_template: string;
}

export const presentLinkifier = (row: LinkifierRow): LinkifierJson => ({ id: row.id, pattern: row.pattern, url_template: row.url_template });
