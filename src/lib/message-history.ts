// A message's edit history as GET /messages/{id}/history shows it: every version, oldest first.
import type { Message } from '../db/schema.ts';

interface StoredEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export interface HistoryVersion {
  topic: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  stream?: number;
  prev_stream?: number;
}

export function messageHistory(m: Message): HistoryVersion[] {
  const entries = m.edit_history ? (JSON.parse(m.edit_history) as StoredEntry[]) : [];
  let state = { topic: m.topic, content: m.content, rendered_content: m.rendered_content, stream: m.stream_id };
  const versions: HistoryVersion[] = [];
  for (const e of entries) {
    const v: HistoryVersion = { topic: state.topic, content: state.content, rendered_content: state.rendered_content, timestamp: e.timestamp, user_id: e.user_id };
    if (e.prev_topic !== undefined) v.prev_topic = e.prev_topic;
    if (e.prev_content !== undefined) v.prev_content = e.prev_content;
    if (e.prev_rendered_content !== undefined) v.prev_rendered_content = e.prev_rendered_content;
    if (e.prev_stream !== undefined) {
      v.prev_stream = e.prev_stream;
      v.stream = e.stream ?? state.stream ?? 0;
    }
    versions.push(v);
    state = {
      topic: e.prev_topic ?? state.topic,
      content: e.prev_content ?? state.content,
      rendered_content: e.prev_rendered_content ?? state.rendered_content,
      stream: e.prev_stream ?? state.stream,
    };
  }
  versions.push({ topic: state.topic, content: state.content, rendered_content: state.rendered_content, timestamp: m.date_sent, user_id: m.sender_id });
  return versions.reverse();
}
