// typing events: someone started or stopped composing to a conversation. No snapshot state.
import { defineEventType } from '../event-type.ts';

type Person = { user_id: number; email: string };

export type TypingEvent =
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'private'; sender: Person; recipients: Person[] }
  | { type: 'typing'; op: 'start' | 'stop'; message_type: 'stream'; sender: Person; stream_id: number; topic: string };

export const typingEventType = defineEventType<TypingEvent>({ type: 'typing' });
