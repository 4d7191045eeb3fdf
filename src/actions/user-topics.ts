// Muting, unmuting and following topics (POST /user_topics and the legacy muted_topics form).
import type { AppContext } from '../context.ts';
import type { Stream, User } from '../db/schema.ts';
import { subscription } from '../db/queries/streams.ts';
import { setUserTopicPolicy, userTopicsOfUser, VISIBILITY } from '../db/queries/user-topics.ts';
import { canReadStreamMessages } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import { presentMutedTopic, presentUserTopic } from '../presenters/user-topic.ts';
import { runAction, type ActionScope } from './action.ts';

/**
 * Sets the user's visibility policy for a topic. Setting a policy needs access to the stream's
 * messages; removing one (INHERIT) only needs the stream to exist, so that a user can clean up
 * after losing access. Nothing is sent when nothing changes.
 */
export async function checkSetTopicVisibility(app: AppContext, user: User, stream: Stream, topic: string, policy: number): Promise<void> {
  await runAction(app, async (scope) => {
    if (policy !== VISIBILITY.INHERIT) {
      const sub = await subscription(scope.tx, user.id, stream.id);
      if (!canReadStreamMessages(user, stream, sub)) throw badRequest('Invalid stream ID');
    }
    await doSetTopicVisibility(scope, user, stream, topic, policy);
  });
}

export async function doSetTopicVisibility(scope: ActionScope, user: User, stream: Stream, topic: string, policy: number): Promise<boolean> {
  const changed = await setUserTopicPolicy(scope.tx, user.id, stream.id, topic, policy, scope.now);
  if (!changed) return false;
  // The legacy event carries the whole list of muted topics; the event queue drops it for
  // clients that asked for `user_topic` events instead.
  const muted = await userTopicsOfUser(scope.tx, user.id, VISIBILITY.MUTED);
  scope.emit({ type: 'muted_topics', muted_topics: muted.map(presentMutedTopic) }, [user.id]);
  const setting = presentUserTopic({ stream_id: stream.id, topic_name: topic, last_updated: scope.now, visibility_policy: policy });
  scope.emit({ type: 'user_topic', ...setting }, [user.id]);
  return true;
}
