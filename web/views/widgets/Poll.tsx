// A poll: the question (its author may change it), each option with its votes and voters, a
// vote button per option that toggles one's own vote, and a form to add an option.
import { client, store } from '../context.ts';
import { errorText, showToast } from '../state.ts';
import type { Message } from '../../store/types.ts';
import { nextIndex, pollOption, pollQuestion, pollVote, type PollState } from '../../lib/widgets.ts';
import { InlineForm, WidgetHeading } from './InlineForm.tsx';

const votes = (n: number) => `${n} ${n === 1 ? 'vote' : 'votes'}`;

export function Poll({ m, poll }: { m: Message; poll: PollState }) {
  const me = store.me;
  const mine = poll.authorId === me;
  const send = (data: Record<string, unknown>) => client.submessage(m.id, data);
  const headingId = `poll-${m.id}-question`;
  return (
    <section class="widget poll" aria-labelledby={headingId}>
      <WidgetHeading
        id={headingId}
        value={poll.question}
        fallback={mine ? 'Add a question' : 'Poll'}
        canEdit={mine}
        editLabel="Edit question"
        fieldLabel="Poll question"
        onSave={(q) => send(pollQuestion(q))}
      />
      {poll.options.length === 0 && <p class="muted-text">No options yet.</p>}
      <ul class="poll-options">
        {poll.options.map((o) => {
          const voted = o.voters.includes(me);
          const names = o.voters.map((id) => (id === me ? 'You' : store.users.name(id))).join(', ');
          return (
            <li key={o.key}>
              <button
                type="button"
                class={`poll-vote ${voted ? 'voted' : ''}`}
                aria-pressed={voted}
                aria-label={`${o.text}: ${votes(o.voters.length)}`}
                title={voted ? 'Take back your vote' : 'Vote for this option'}
                onClick={(e) => {
                  e.stopPropagation();
                  send(pollVote(o.key, !voted)).catch((err) => showToast(errorText(err), true));
                }}
              >
                {o.voters.length}
              </button>
              <span class="poll-option">
                <span>{o.text}</span>
                {names && <span class="poll-voters">{names}</span>}
              </span>
            </li>
          );
        })}
      </ul>
      <InlineForm label="New option" submitLabel="Add option" onSubmit={(text) => send(pollOption(text, nextIndex(m.submessages ?? [], me)))} />
    </section>
  );
}
