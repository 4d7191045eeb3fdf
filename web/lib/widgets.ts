// The state of a poll or a todo list, folded from its message's submessages in order (the first
// one, written by the server, says which widget it is and what it starts with). Pure: the views
// derive the state from the message on every change, so a live submessage event is simply one
// more item in the list.
export interface Submessage {
  id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface PollOption {
  key: string;
  text: string;
  /** Who votes for it, in the order they voted. */
  voters: number[];
}

export interface PollState {
  kind: 'poll';
  authorId: number;
  question: string;
  options: PollOption[];
}

export interface TodoTask {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoState {
  kind: 'todo';
  authorId: number;
  title: string;
  tasks: TodoTask[];
}

export type WidgetState = PollState | TodoState;

/** The highest index a client may give an option or a task (the server refuses more). */
export const MAX_INDEX = 1000;

type Data = Record<string, unknown>;

function parse(content: string): Data | null {
  try {
    const v = JSON.parse(content) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A poll after one more submessage (a new object; the old one is left as it was). */
export function reducePoll(state: PollState, senderId: number, data: Data): PollState {
  switch (data.type) {
    case 'question':
      return senderId === state.authorId && typeof data.question === 'string' ? { ...state, question: data.question } : state;
    case 'new_option': {
      const key = `${senderId},${String(data.idx)}`;
      const text = str(data.option).trim();
      if (!text || !Number.isInteger(data.idx) || state.options.some((o) => o.key === key)) return state;
      return { ...state, options: [...state.options, { key, text, voters: [] }] };
    }
    case 'vote': {
      const on = data.vote === 1;
      const options = state.options.map((o) => {
        if (o.key !== data.key) return o;
        const has = o.voters.includes(senderId);
        if (on === has) return o;
        return { ...o, voters: on ? [...o.voters, senderId] : o.voters.filter((id) => id !== senderId) };
      });
      return { ...state, options };
    }
    default:
      return state;
  }
}

/** A todo list after one more submessage. */
export function reduceTodo(state: TodoState, senderId: number, data: Data): TodoState {
  switch (data.type) {
    case 'new_task_list_title':
      return senderId === state.authorId && typeof data.title === 'string' ? { ...state, title: data.title } : state;
    case 'new_task': {
      const key = `${String(data.key)},${senderId}`;
      const task = str(data.task).trim();
      // A task named like an existing one is a second click on "Add", not a second task.
      if (!task || !Number.isInteger(data.key) || state.tasks.some((t) => t.key === key || t.task === task)) return state;
      return { ...state, tasks: [...state.tasks, { key, task, desc: str(data.desc).trim(), completed: data.completed === true }] };
    }
    case 'strike':
      return { ...state, tasks: state.tasks.map((t) => (t.key === data.key ? { ...t, completed: !t.completed } : t)) };
    default:
      return state;
  }
}

/** The widget of a message from its submessages, or null when it has none we know. */
export function widgetState(submessages: readonly Submessage[] | undefined): WidgetState | null {
  const first = submessages?.find((s) => s.msg_type === 'widget');
  if (!first) return null;
  const start = parse(first.content);
  const extra = (start?.extra_data ?? {}) as Data;
  let state: WidgetState;
  if (start?.widget_type === 'poll') {
    const options = Array.isArray(extra.options) ? extra.options : [];
    state = { kind: 'poll', authorId: first.sender_id, question: str(extra.question), options: options.map((o, i) => ({ key: `canned,${i}`, text: str(o), voters: [] })) };
  } else if (start?.widget_type === 'todo') {
    const tasks = Array.isArray(extra.tasks) ? (extra.tasks as Data[]) : [];
    state = { kind: 'todo', authorId: first.sender_id, title: str(extra.task_list_title), tasks: tasks.map((t, i) => ({ key: `${i},canned`, task: str(t?.task), desc: str(t?.desc), completed: false })) };
  } else {
    return null;
  }
  for (const s of submessages!) {
    if (s === first || s.msg_type !== 'widget') continue;
    const data = parse(s.content);
    if (!data) continue;
    state = state.kind === 'poll' ? reducePoll(state, s.sender_id, data) : reduceTodo(state, s.sender_id, data);
  }
  return state;
}

/** The index for the next option or task someone adds: past every one they added before. */
export function nextIndex(submessages: readonly Submessage[], userId: number): number {
  let next = 0;
  for (const s of submessages) {
    if (s.sender_id !== userId || s.msg_type !== 'widget') continue;
    const d = parse(s.content);
    const idx = d?.type === 'new_option' ? d.idx : d?.type === 'new_task' ? d.key : undefined;
    if (typeof idx === 'number' && idx >= next) next = idx + 1;
  }
  return Math.min(next, MAX_INDEX);
}

/** The submessages a person's actions send (the reference's shapes). */
export const pollVote = (key: string, on: boolean) => ({ type: 'vote', key, vote: on ? 1 : -1 });
export const pollOption = (option: string, idx: number) => ({ type: 'new_option', option, idx });
export const pollQuestion = (question: string) => ({ type: 'question', question });
export const todoTask = (task: string, desc: string, key: number) => ({ type: 'new_task', key, task, desc, completed: false });
export const todoStrike = (key: string) => ({ type: 'strike', key });
export const todoTitle = (title: string) => ({ type: 'new_task_list_title', title });
