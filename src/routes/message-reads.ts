// Reading single messages: a message, its edit history, narrow matching, and rendering a preview.
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import { badRequest } from '../lib/errors.ts';
import { accessMessage } from '../lib/message-access.ts';
import { matchesNarrow } from '../actions/messages/fetch.ts';
import { messageHistory } from '../lib/message-history.ts';
import { renderMessage } from '../lib/message-render.ts';
import { loadMessageRelations } from '../lib/messages.ts';
import { parseNarrow } from '../lib/narrow.ts';
import { realmSettings, realmUrl } from '../lib/realm.ts';
import { presentMessage } from '../presenters/message.ts';

export const messageReadRoutes = [
  route({
    method: 'GET',
    path: '/messages/matches_narrow',
    auth: 'user',
    params: { msg_ids: idList(), narrow: p.json(parseNarrow) },
    async handler({ app, user, params }) {
      return { messages: await matchesNarrow(app, user, params.msg_ids, params.narrow) };
    },
  }),
  route({
    method: 'GET',
    path: '/messages/{message_id}',
    auth: 'user',
    params: { message_id: path(id()), apply_markdown: optional(p.bool(), true) },
    async handler({ app, realm, user, params }) {
      const { message, flags } = await accessMessage(app.db.kysely, user, params.message_id);
      const rel = (await loadMessageRelations(app.db.kysely, realm, realmUrl(app.config, realm), [message])).get(message.id)!;
      const json = presentMessage(message, rel, { applyMarkdown: params.apply_markdown, clientExternalAvatar: false }, flags);
      return { raw_content: message.content, message: json };
    },
  }),
  route({
    method: 'GET',
    path: '/messages/{message_id}/history',
    auth: 'user',
    params: { message_id: path(id()) },
    async handler({ app, realm, user, params }) {
      if (!realmSettings(realm).allow_edit_history) throw badRequest('Message edit history is disabled in this organization');
      const { message } = await accessMessage(app.db.kysely, user, params.message_id);
      return { message_history: messageHistory(message) };
    },
  }),
  route({
    method: 'POST',
    path: '/messages/render',
    auth: 'user',
    params: { content: p.string() },
    async handler({ app, realm, user, params }) {
      const r = await renderMessage(app.db.kysely, realm, realmUrl(app.config, realm), params.content, user, { imageProxyKey: app.imageProxyKey });
      return { rendered: r.result.html };
    },
  }),
];
