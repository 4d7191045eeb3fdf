// The `recent_private_conversations` group: the user's direct-message conversations, latest first.
import { dmKeyUsers, recipientsByIds } from '../../db/queries/recipients.ts';
import { recentDmConversations } from '../../db/queries/state.ts';
import type { RecentConversation } from '../families/message.ts';
import type { SnapshotGroup } from './types.ts';

export const recentPrivateConversationsGroup: SnapshotGroup = async ({ app, user }) => {
  if (!user) return { recent_private_conversations: [] };
  const db = app.db.kysely;
  const rows = await recentDmConversations(db, user.id);
  const recipients = await recipientsByIds(db, rows.map((r) => r.recipient_id));
  const list: RecentConversation[] = rows.map((r) => ({
    user_ids: dmKeyUsers(recipients.get(r.recipient_id)?.dm_key ?? '').filter((id) => id !== user.id),
    max_message_id: Number(r.max_id),
  }));
  return { recent_private_conversations: list.sort((a, b) => b.max_message_id - a.max_message_id) };
};
