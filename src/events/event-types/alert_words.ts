// alert_words events: the user's whole list of alert words.
import { alertWords } from '../../db/queries/presence.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type AlertWordsEvent = { type: 'alert_words'; alert_words: string[] };

export const alertWordsSnapshot: SnapshotGroup = async ({ app, user }) => ({ alert_words: user ? await alertWords(app.db.kysely, user.id) : [] });

export const alertWordsEventType = defineEventType<AlertWordsEvent>({
  type: 'alert_words',
  snapshot: { alert_words: alertWordsSnapshot },
  apply: replaceApply('alert_words', 'alert_words'),
});
