// The left sidebar: views, streams with their recent topics, DM conversations; with counts.
import { store } from './context.ts';
import { view } from './state.ts';
import { currentNarrow, goDrafts, hashFor } from './nav.ts';
import { topicKey } from '../store/unread.ts';
import type { Narrow } from '../store/types.ts';
import { demotesInactive, showsStarredCount } from '../lib/display.ts';

function Count({ n, label = 'unread', class: cls = '' }: { n: number; label?: string; class?: string }) {
  if (!n) return null;
  return (
    <span class={`count ${cls}`} aria-label={`${n} ${label}`}>
      {n}
    </span>
  );
}

const same = (a: Narrow, b: Narrow) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A narrow's row. A name the sidebar cuts ends in an ellipsis, and shows in full on hover
 * (topics that begin alike were cut to the same words, with nothing to tell them apart).
 */
function Link({ narrow, name, icon, class: cls = '', count, countLabel, style }: { narrow: Narrow; name: string; icon?: preact.ComponentChildren; class?: string; count?: number; countLabel?: string; style?: Record<string, string> }) {
  const current = view.value.kind === 'narrow' && same(currentNarrow(), narrow);
  return (
    <a href={hashFor(narrow)} class={`side-link ${cls} ${current ? 'current' : ''}`} aria-current={current ? 'page' : undefined} style={style} title={name}>
      <span class="label">
        {icon}
        <span class="name">{name}</span>
      </span>
      {count !== undefined && (countLabel ? <Count n={count} label={countLabel} class="muted-count" /> : <Count n={count} />)}
    </a>
  );
}

/** A view that is not a narrow (Inbox, Recent conversations). */
function ViewLink({ kind, hash, count, children }: { kind: 'inbox' | 'recent'; hash: string; count?: number; children: preact.ComponentChildren }) {
  const current = view.value.kind === kind;
  return (
    <a href={hash} class={`side-link ${current ? 'current' : ''}`} aria-current={current ? 'page' : undefined}>
      <span class="label">{children}</span>
      {count !== undefined && <Count n={count} />}
    </a>
  );
}

export function Sidebar() {
  const counts = store.unread.counts.value;
  const settings = store.settings.user.value;
  const sorted = store.streams.sorted.value;
  // Streams with no recent traffic go below the others, dimmed (demote_inactive_streams).
  const demote = demotesInactive(settings, sorted.length);
  const inactive = (s: (typeof sorted)[number]) => demote && s.is_recently_active === false && !s.pin_to_top;
  const subs = demote ? [...sorted.filter((s) => !inactive(s)), ...sorted.filter(inactive)] : sorted;
  const topics = store.streams.topics.value;
  const narrow = currentNarrow();
  const activeStream = Number(narrow.find((t) => t.operator === 'stream')?.operand ?? NaN);
  const activeTopic = narrow.find((t) => t.operator === 'topic')?.operand;
  const drafts = store.drafts.byId.value.size;
  const scheduled = store.scheduled.byId.value.size;
  const me = store.me;
  // Recent conversations, and any older one that still has unread messages.
  const recent = store.recentDms.value.slice(0, 12);
  for (const key of counts.byDm.keys()) {
    if (!recent.some((c) => c.key === key)) recent.push({ key, userIds: key.split(',').map(Number).filter((id) => id !== me), maxId: 0 });
  }

  return (
    <nav class="sidebar left" aria-label="Streams">
      <ul class="views">
        <li>
          <ViewLink kind="inbox" hash="#inbox" count={counts.total}>
            Inbox
          </ViewLink>
        </li>
        <li>
          <ViewLink kind="recent" hash="#recent">
            Recent conversations
          </ViewLink>
        </li>
        <li>
          <Link narrow={[]} name="All messages" count={counts.total} />
        </li>
        <li>
          <Link narrow={[{ operator: 'is', operand: 'mentioned' }]} name="Mentions" count={counts.mentions} />
        </li>
        <li>
          <Link narrow={[{ operator: 'is', operand: 'starred' }]} name="Starred" count={showsStarredCount(settings) ? store.starred.value.size : undefined} countLabel="starred" />
        </li>
        <li>
          <a href="#drafts" class={`side-link ${view.value.kind === 'drafts' ? 'current' : ''}`} onClick={(e) => (e.preventDefault(), goDrafts())}>
            <span class="label">Drafts</span>
            {drafts > 0 && <span class="count muted-count" aria-label={`${drafts} drafts`}>{drafts}</span>}
          </a>
        </li>
        {/* Shown while there are any, as the reference's sidebar does. */}
        {scheduled > 0 && (
          <li>
            <a href="#scheduled" class={`side-link ${view.value.kind === 'scheduled' ? 'current' : ''}`}>
              <span class="label">Scheduled messages</span>
              <span class="count muted-count" aria-label={`${scheduled} scheduled`}>
                {scheduled}
              </span>
            </a>
          </li>
        )}
      </ul>

      <h2 class="side-heading">Streams</h2>
      <ul class="streams">
        {subs.map((s) => {
          const streamTopics = topics.get(s.stream_id) ?? [];
          const isActive = s.stream_id === activeStream;
          // The stream you are in shows its recent topics; others show only topics with unreads.
          const shown = streamTopics.filter((t) => isActive || (counts.byTopic.get(topicKey(s.stream_id, t.name)) ?? 0) > 0).slice(0, isActive ? 10 : 5);
          return (
            <li key={s.stream_id} class={`${s.is_muted ? 'muted' : ''} ${inactive(s) ? 'inactive' : ''}`}>
              <Link
                narrow={[{ operator: 'stream', operand: s.stream_id }]}
                name={s.name}
                icon={
                  <span class="swatch" style={{ background: s.color }} aria-hidden="true">
                    {s.invite_only ? '🔒' : '#'}
                  </span>
                }
                count={counts.byStream.get(s.stream_id) ?? 0}
                class="stream-link"
              />
              {shown.length > 0 && (
                <ul class="topics">
                  {shown.map((t) => (
                    <li key={t.name}>
                      <Link
                        narrow={[
                          { operator: 'stream', operand: s.stream_id },
                          { operator: 'topic', operand: t.name },
                        ]}
                        name={t.name || 'general chat'}
                        count={counts.byTopic.get(topicKey(s.stream_id, t.name)) ?? 0}
                        class={`topic-link ${isActive && activeTopic !== undefined && String(activeTopic).toLowerCase() === t.name.toLowerCase() ? 'current-topic' : ''}`}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
        {subs.length === 0 && <li class="empty">You are not subscribed to any stream.</li>}
      </ul>
      <a class="browse-streams" href="#settings/streams">
        Browse and create streams
      </a>

      <h2 class="side-heading">Direct messages</h2>
      <ul class="dms">
        {recent.map((c) => {
          const ids = c.userIds.length ? c.userIds : [me];
          return (
            <li key={c.key}>
              <Link narrow={[{ operator: 'dm', operand: ids }]} name={ids.map((id) => store.users.name(id)).join(', ')} count={counts.byDm.get(c.key) ?? 0} />
            </li>
          );
        })}
        {recent.length === 0 && <li class="empty">No direct messages yet.</li>}
      </ul>
    </nav>
  );
}
