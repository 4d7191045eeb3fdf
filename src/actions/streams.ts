// Creating streams.
import type { Tx } from '../db/database.ts';
import type { Stream } from '../db/schema.ts';
import { insertStream } from '../db/queries/streams.ts';
import { realmByIdOrThrow } from '../db/queries/realms.ts';
import { renderDescription } from '../lib/message-render.ts';

export interface NewStreamInput {
  realmId: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  streamPostPolicy: number;
  messageRetentionDays: number | null;
  canRemoveSubscribersGroupId: number;
  creatorId: number | null;
  /** The realm's URL, so links to this server render as local links. */
  realmUrl?: string;
}

export async function doCreateStream(tx: Tx, now: number, input: NewStreamInput): Promise<Stream> {
  const realm = await realmByIdOrThrow(tx, input.realmId);
  return insertStream(tx, {
    realm_id: input.realmId,
    name: input.name,
    description: input.description,
    rendered_description: await renderDescription(tx, realm, input.realmUrl ?? '', input.description),
    date_created: now,
    deactivated: 0,
    invite_only: input.inviteOnly ? 1 : 0,
    is_web_public: input.isWebPublic ? 1 : 0,
    history_public_to_subscribers: input.historyPublicToSubscribers ? 1 : 0,
    stream_post_policy: input.streamPostPolicy,
    message_retention_days: input.messageRetentionDays,
    can_remove_subscribers_group_id: input.canRemoveSubscribersGroupId,
    creator_id: input.creatorId,
  });
}
