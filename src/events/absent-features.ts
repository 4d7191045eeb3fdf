// Groups of features this server does not have (code playgrounds, embedded and incoming-webhook
// bot integrations, Zoom, GIPHY, onboarding hotspots).
// The reference returns their keys to every client that asks, so clients that read them
// unconditionally find them here, empty.
import type { SnapshotGroup } from './event-type.ts';

const constant = (fields: Record<string, unknown>): SnapshotGroup => async () => structuredClone(fields);

export const absentFeatureGroups: Record<string, SnapshotGroup> = {
  realm_playgrounds: constant({ realm_playgrounds: [] }),
  realm_embedded_bots: constant({ realm_embedded_bots: [] }),
  realm_incoming_webhook_bots: constant({ realm_incoming_webhook_bots: [] }),
  video_calls: constant({ has_zoom_token: false }),
  giphy: constant({ giphy_api_key: '' }),
  // `onboarding_steps` from feature level 233.
  hotspots: constant({ hotspots: [] }),
};
