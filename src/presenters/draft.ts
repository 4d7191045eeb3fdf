// The Draft object of the API.
import type { Draft } from '../db/schema.ts';

export interface DraftJson {
  id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export function presentDraft(d: Draft): DraftJson {
  return {
    id: d.id,
    type: d.type as DraftJson['type'],
    to: JSON.parse(d.to_ids) as number[],
    topic: d.topic,
    content: d.content,
    timestamp: d.last_edit_time,
  };
}
