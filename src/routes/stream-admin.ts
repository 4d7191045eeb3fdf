// Stream administration: PATCH /streams/{stream_id} and archiving with DELETE.
import { alias, optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { badRequest } from '../lib/errors.ts';
import { MAX_DB_ID } from '../lib/limits.ts';
import { checkArchiveStream, checkUpdateStream } from '../actions/stream-admin.ts';

/** `realm_default` (null), `unlimited` (-1) or a positive number of days. */
const retention = p.custom((raw, name) => {
  let v: unknown = raw;
  try {
    v = JSON.parse(raw);
  } catch {
    // a plain word
  }
  if (v === 'realm_default') return null;
  if (v === 'unlimited' || v === -1) return -1;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_DB_ID) return v;
  throw badRequest(`Bad value for '${name}': ${raw}`);
});

export const streamAdminRoutes = [
  route({
    method: 'PATCH',
    path: '/streams/{stream_id}',
    auth: 'user',
    params: {
      stream_id: path(id()),
      new_name: optional(p.string()),
      description: optional(p.string()),
      is_private: optional(p.bool()),
      is_web_public: optional(p.bool()),
      history_public_to_subscribers: optional(p.bool()),
      stream_post_policy: optional(p.int()),
      is_announcement_only: optional(p.bool()),
      message_retention_days: optional(retention),
      can_remove_subscribers_group_id: optional(alias(id(), 'can_remove_subscribers_group')),
      is_default_stream: optional(p.bool()),
    },
    async handler({ app, realm, user, params }) {
      const legacyPolicy = params.is_announcement_only === undefined ? undefined : params.is_announcement_only ? 2 : 1;
      const messageRetentionDays = params.message_retention_days as number | null | undefined;
      await checkUpdateStream(app, user, realm, params.stream_id, {
        newName: params.new_name,
        description: params.description,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        streamPostPolicy: params.stream_post_policy ?? legacyPolicy,
        messageRetentionDays,
        canRemoveSubscribersGroupId: params.can_remove_subscribers_group_id,
        isDefaultStream: params.is_default_stream,
      });
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/streams/{stream_id}',
    auth: 'user',
    params: { stream_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkArchiveStream(app, user, realm, params.stream_id);
      return {};
    },
  }),
];
