// Widgets (polls and todo lists): the data a `/poll` or `/todo` message starts with, and the
// checks on what people add to one through POST /submessage. The shapes are the reference's, so
// its clients work against Parley.
import { badRequest } from './errors.ts';

export type WidgetType = 'poll' | 'todo';

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: { task: string; desc: string }[];
}

export type WidgetContent = { widget_type: 'poll'; extra_data: PollExtraData } | { widget_type: 'todo'; extra_data: TodoExtraData };

/** Option and task indexes a client may use (the reference's clients stop at the same bound). */
export const MAX_WIDGET_INDEX = 1000;

/** An item line without the list marker someone typed in front of it. */
const itemText = (line: string): string => line.trim().replace(/^[-*]?\s*/, '');

/**
 * The widget a message's content asks for: its first word is `/poll` or `/todo`; the rest of
 * that line is the question (or title), and each following non-blank line an option (or a
 * task, with an optional description after the first ": ").
 */
export function widgetFromContent(content: string): WidgetContent | null {
  const m = /^(\/poll|\/todo)(?=\s|$)/.exec(content);
  if (!m) return null;
  const [first = '', ...rest] = content.slice(m[1]!.length).split(/\r?\n/);
  const items = rest.map(itemText).filter((s) => s.length > 0);
  if (m[1] === '/poll') return { widget_type: 'poll', extra_data: { question: first.trim(), options: items } };
  return {
    widget_type: 'todo',
    extra_data: {
      task_list_title: first.trim(),
      tasks: items.map((item) => {
        const at = item.indexOf(': ');
        return at < 0 ? { task: item, desc: '' } : { task: item.slice(0, at).trim(), desc: item.slice(at + 2).trim() };
      }),
    },
  };
}

/** The widget type named by a message's widget submessage, if it is one we know. */
export function widgetTypeOf(content: string | undefined): WidgetType | null {
  if (content === undefined) return null;
  try {
    const t = (JSON.parse(content) as { widget_type?: unknown }).widget_type;
    return t === 'poll' || t === 'todo' ? t : null;
  } catch {
    return null;
  }
}

type Field = 'string' | 'integer' | 'boolean' | 'vote' | 'index';

function checkFields(what: string, data: Record<string, unknown>, fields: Record<string, Field>): void {
  for (const key of Object.keys(data)) if (!Object.hasOwn(fields, key)) throw badRequest(`${what} has an unexpected key '${key}'`);
  for (const [key, kind] of Object.entries(fields)) {
    const v = data[key];
    if (v === undefined) throw badRequest(`${what} is missing '${key}'`);
    const ok =
      kind === 'string' ? typeof v === 'string'
      : kind === 'boolean' ? typeof v === 'boolean'
      : kind === 'vote' ? v === 1 || v === -1
      : Number.isSafeInteger(v) && (kind === 'integer' || ((v as number) >= 0 && (v as number) <= MAX_WIDGET_INDEX));
    if (!ok) {
      const expected = { string: 'a string', boolean: 'a boolean', integer: 'an integer', vote: '1 or -1', index: `an integer from 0 to ${MAX_WIDGET_INDEX}` }[kind];
      throw badRequest(`${what}: '${key}' must be ${expected}`);
    }
  }
}

const POLL_TYPES: Record<string, Record<string, Field>> = {
  vote: { type: 'string', key: 'string', vote: 'vote' },
  question: { type: 'string', question: 'string' },
  new_option: { type: 'string', option: 'string', idx: 'index' },
};

const TODO_TYPES: Record<string, Record<string, Field>> = {
  new_task: { type: 'string', key: 'index', task: 'string', desc: 'string', completed: 'boolean' },
  strike: { type: 'string', key: 'string' },
  new_task_list_title: { type: 'string', title: 'string' },
};

/** Changes only the message's sender may make: a poll's question, a todo list's title. */
const AUTHOR_ONLY: Record<string, string> = {
  question: "You can't edit a question unless you are the author.",
  new_task_list_title: "You can't edit the task list title unless you are the author.",
};

/** Checks a submessage's data against the widget it is for; throws a 400 naming what is wrong. */
export function checkWidgetData(widget: WidgetType, data: unknown, isAuthor: boolean): void {
  const what = `${widget} data`;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badRequest(`${what} is not a dict`);
  const record = data as Record<string, unknown>;
  if (typeof record.type !== 'string') throw badRequest(`${what} is missing 'type'`);
  const types = widget === 'poll' ? POLL_TYPES : TODO_TYPES;
  const fields = Object.hasOwn(types, record.type) ? types[record.type] : undefined;
  if (!fields) throw badRequest(`Unknown type for ${what}: ${record.type}`);
  const authorOnly = AUTHOR_ONLY[record.type];
  if (authorOnly && !isAuthor) throw badRequest(authorOnly);
  checkFields(what, record, fields);
}
