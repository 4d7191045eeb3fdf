// Submessages: the data widgets (polls, todo lists) add to a message.
import { route } from '../http/route.ts';
import { p } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { checkAddSubmessage } from '../actions/messages/submessages.ts';
import { LIMITS } from '../lib/limits.ts';

export const submessageRoutes = [
  route({
    method: 'POST',
    path: '/submessage',
    auth: 'user',
    params: {
      message_id: id(),
      msg_type: p.string({ maxLength: LIMITS.maxSubmessageTypeLength }),
      content: p.string(),
    },
    async handler({ app, user, params }) {
      await checkAddSubmessage(app, user, { messageId: params.message_id, msgType: params.msg_type, content: params.content });
      return {};
    },
  }),
];
