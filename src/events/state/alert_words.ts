// Register snapshot: alert_words of the caller.
import { alertWords } from '../../db/queries/presence.ts';
import type { SnapshotGroup } from './types.ts';

export const alertWordsSnapshot: SnapshotGroup = async ({ app, user }) => ({ alert_words: user ? await alertWords(app.db.kysely, user.id) : [] });
