// invites_changed events: the realm's invitations changed; clients fetch the list again. They go
// to administrators and the invitation's creator. No snapshot state.
import { defineEventType } from '../event-type.ts';

export type InvitesChangedEvent = { type: 'invites_changed' };

export const invitesChangedEventType = defineEventType<InvitesChangedEvent>({ type: 'invites_changed' });
