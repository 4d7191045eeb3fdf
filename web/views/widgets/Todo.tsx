// A todo list: its title (its author may change it), each task with a checkbox anyone may
// tick, and a form to add a task with an optional description.
import { client, store } from '../context.ts';
import { errorText, showToast } from '../state.ts';
import type { Message } from '../../store/types.ts';
import { nextIndex, todoStrike, todoTask, todoTitle, type TodoState } from '../../lib/widgets.ts';
import { InlineForm, WidgetHeading } from './InlineForm.tsx';

export function Todo({ m, todo }: { m: Message; todo: TodoState }) {
  const mine = todo.authorId === store.me;
  const send = (data: Record<string, unknown>) => client.submessage(m.id, data);
  const headingId = `todo-${m.id}-title`;
  return (
    <section class="widget todo" aria-labelledby={headingId}>
      <WidgetHeading
        id={headingId}
        value={todo.title}
        fallback="Task list"
        canEdit={mine}
        editLabel="Edit title"
        fieldLabel="Task list title"
        onSave={(t) => send(todoTitle(t))}
      />
      {todo.tasks.length === 0 && <p class="muted-text">No tasks yet.</p>}
      <ul class="todo-tasks">
        {todo.tasks.map((t) => (
          <li key={t.key} class={t.completed ? 'done' : ''}>
            <label onClick={(e) => e.stopPropagation()}>
              <input
                type="checkbox"
                checked={t.completed}
                onChange={(e) => {
                  // The box follows the click at once; the event confirms it, a refusal undoes it.
                  const box = e.currentTarget;
                  send(todoStrike(t.key)).catch((err) => {
                    box.checked = t.completed;
                    showToast(errorText(err), true);
                  });
                }}
              />
              <span class="todo-task">{t.task}</span>
              {t.desc && <span class="todo-desc">{t.desc}</span>}
            </label>
          </li>
        ))}
      </ul>
      <InlineForm
        label="New task"
        submitLabel="Add task"
        onSubmit={(task, form) => {
          const desc = (form.elements.namedItem('desc') as HTMLInputElement | null)?.value.trim() ?? '';
          return send(todoTask(task, desc, nextIndex(m.submessages ?? [], store.me)));
        }}
      >
        <input name="desc" aria-label="Task description (optional)" placeholder="Description (optional)" maxLength={500} />
      </InlineForm>
    </section>
  );
}
