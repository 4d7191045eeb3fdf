// The ScheduledMessage object of the API.
import type { ScheduledMessage } from '../db/schema.ts';

export interface ScheduledMessageJson {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export function presentScheduledMessage(m: ScheduledMessage): ScheduledMessageJson {
  const common = {
    scheduled_message_id: m.id,
    content: m.content,
    rendered_content: m.rendered_content,
    scheduled_delivery_timestamp: m.scheduled_timestamp,
    failed: m.failed === 1,
  };
  if (m.type === 'stream') return { ...common, type: 'stream', to: m.stream_id!, topic: m.topic };
  return { ...common, type: 'private', to: JSON.parse(m.to_user_ids ?? '[]') as number[] };
}
