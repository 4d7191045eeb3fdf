// submessage events: a widget's (poll, todo list) submessage added to a message, to everyone who
// can see the message. Fetched messages carry their submessages; no register snapshot state.
import { defineEventType } from '../event-type.ts';

export type SubmessageEvent = { type: 'submessage'; msg_type: string; message_id: number; submessage_id: number; sender_id: number; content: string };

export const submessageEventType = defineEventType<SubmessageEvent>({ type: 'submessage' });
