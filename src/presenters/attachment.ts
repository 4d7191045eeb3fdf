// The Attachment object of the API (times in milliseconds, as the reference has them).
import type { Attachment } from '../db/schema.ts';
import type { LinkedMessage } from '../db/queries/attachments.ts';

export interface AttachmentJson {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

export function presentAttachment(a: Attachment, messages: readonly LinkedMessage[]): AttachmentJson {
  return {
    id: a.id,
    name: a.file_name,
    path_id: a.path_id,
    size: a.size,
    create_time: a.create_time * 1000,
    messages: messages.map((m) => ({ id: m.id, date_sent: m.date_sent * 1000 })),
  };
}
