// Every migration, in order. A migration's name never changes once it has landed.
import type { Migration } from './util.ts';
import { migration as core } from './0001_core.ts';
import { migration as shared } from './0002_shared.ts';
import { migration as events } from './0003_events.ts';

import { migration as userTopics } from './0008_user_topics.ts';

import { migration as groupsProfiles } from './0006_groups_profiles.ts';

export const migrations: Migration[] = [core, shared, events, userTopics, groupsProfiles];
