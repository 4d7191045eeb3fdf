// Every migration, in order (one per line, so additions merge). A migration's name never
// changes once it has landed; the list order is the order they run in.
import type { Migration } from './util.ts';
import { migration as core } from './0001_core.ts';
import { migration as shared } from './0002_shared.ts';
import { migration as events } from './0003_events.ts';
import { migration as messages } from './0004_messages.ts';
import { migration as personal } from './0005_personal.ts';
import { migration as groupsProfiles } from './0006_groups_profiles.ts';
import { migration as admin } from './0007_admin.ts';
import { migration as userTopics } from './0008_user_topics.ts';
import { migration as hardening } from './0010_hardening.ts';
import { migration as sessions } from './0011_sessions.ts';
import { migration as serverSecrets } from './0012_server_secrets.ts';
import { migration as joining } from './0013_joining.ts';
import { migration as starredIndex } from './0014_starred_index.ts';
import { migration as submessages } from './0015_submessages.ts';
import { migration as realmIcon } from './0016_realm_icon.ts';
import { migration as pendingUserMessages } from './0017_pending_user_messages.ts';
import { migration as searchIndexLater } from './0018_search_index_later.ts';
import { migration as writeCounts } from './0019_write_counts.ts';
import { migration as writeCountsKept } from './0020_write_counts_kept.ts';

export const migrations: Migration[] = [
  core,
  shared,
  events,
  messages,
  personal,
  userTopics,
  groupsProfiles,
  admin,
  hardening,
  sessions,
  serverSecrets,
  joining,
  starredIndex,
  submessages,
  realmIcon,
  pendingUserMessages,
  searchIndexLater,
  writeCounts,
  writeCountsKept,
];
