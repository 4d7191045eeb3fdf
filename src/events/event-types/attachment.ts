// attachment events: the user's uploaded files added, changed (the messages linking them) or
// removed, with the space they use. No snapshot state.
import type { AttachmentJson } from '../../presenters/attachment.ts';
import { defineEventType } from '../event-type.ts';

export type AttachmentEvent =
  | { type: 'attachment'; op: 'add' | 'update'; attachment: AttachmentJson; upload_space_used: number }
  | { type: 'attachment'; op: 'remove'; attachment: { id: number }; upload_space_used: number };

export const attachmentEventType = defineEventType<AttachmentEvent>({ type: 'attachment' });
