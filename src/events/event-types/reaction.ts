// reaction events: an emoji reaction added to or removed from a message. No snapshot state.
import { defineEventType } from '../event-type.ts';

export type ReactionEvent = {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  user: { user_id: number; email: string; full_name: string; is_mirror_dummy: boolean };
};

export const reactionEventType = defineEventType<ReactionEvent>({ type: 'reaction' });
