// Submessages: what widgets (polls, todo lists) attach to a message. The server writes a
// widget's first one when the message is sent; then anyone who can see the message adds
// votes, options, tasks and checks, and everyone who can see it hears of each.
import type { AppContext } from '../../context.ts';
import type { Message, User } from '../../db/schema.ts';
import { lockMessage } from '../../db/queries/edit.ts';
import { firstSubmessage, hasSubmessageFrom, insertSubmessage } from '../../db/queries/submessages.ts';
import { badRequest } from '../../lib/errors.ts';
import { LIMITS } from '../../lib/limits.ts';
import { accessMessage, invalidMessage } from '../../lib/message-access.ts';
import { messageAudience } from '../../lib/message-audience.ts';
import { checkWidgetData, widgetFromContent, widgetTypeOf } from '../../lib/widgets.ts';
import { runAction, type ActionScope } from '../action.ts';

export interface SubmessageInput {
  messageId: number;
  msgType: string;
  content: string;
}

/** Writes the widget submessage of a message whose content starts with `/poll` or `/todo`. */
/** Adds the widget a message's content asks for; true if there was one. */
export async function addWidgetOnSend(tx: ActionScope['tx'], message: Pick<Message, 'id' | 'sender_id' | 'content'>): Promise<boolean> {
  const widget = widgetFromContent(message.content);
  if (!widget) return false;
  await insertSubmessage(tx, { message_id: message.id, sender_id: message.sender_id, msg_type: 'widget', content: JSON.stringify(widget) });
  return true;
}

export async function checkAddSubmessage(app: AppContext, user: User, input: SubmessageInput): Promise<number> {
  const { message } = await accessMessage(app.db.kysely, user, input.messageId);
  if (input.msgType === '') throw badRequest('msg_type must not be empty');
  if (input.content.length > LIMITS.maxSubmessageLength) throw badRequest(`Submessage too long (limit: ${LIMITS.maxSubmessageLength} characters)`);
  let data: unknown;
  try {
    data = JSON.parse(input.content);
  } catch {
    throw badRequest('Invalid json for submessage');
  }
  return runAction(app, async (scope) => {
    // The lock orders concurrent submessages of one message (and waits out its deletion).
    const locked = await lockMessage(scope.tx, message.id, scope.dialect);
    if (!locked) throw invalidMessage();
    // Widgets are collaborative, but the message's sender starts them.
    if (locked.sender_id !== user.id && !(await hasSubmessageFrom(scope.tx, locked.id, locked.sender_id))) {
      throw badRequest('You cannot attach a submessage to this message.');
    }
    const widget = widgetTypeOf((await firstSubmessage(scope.tx, locked.id, 'widget'))?.content);
    if (widget) checkWidgetData(widget, data, locked.sender_id === user.id);
    const id = await insertSubmessage(scope.tx, { message_id: locked.id, sender_id: user.id, msg_type: input.msgType, content: input.content });
    scope.emit(
      { type: 'submessage', msg_type: input.msgType, message_id: locked.id, submessage_id: id, sender_id: user.id, content: input.content },
      await messageAudience(scope.tx, [locked]),
    );
    return id;
  });
}
