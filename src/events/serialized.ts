// An event's JSON, made once per client form. A published event reaches many queues in a few
// distinct forms (the manager shares one form object between the clients with the same form
// key); each queue holds its own copy with its queue-local id, and a poll's answer is put
// together from the form's JSON text with that id appended, not by serializing the event again.
import type { BaseEvent, QueuedEvent } from './types.ts';

/** The JSON of each shared form, without the closing brace; null when the form has its own `id`. */
const formText = new WeakMap<BaseEvent, string | null>();

function textOf(form: BaseEvent): string | null {
  let text = formText.get(form);
  if (text === undefined) {
    // A queued event is a copy of its form with `id` set (EventQueue.push): `id` is last unless
    // the form has one of its own (then in its place).
    const json = Object.hasOwn(form, 'id') ? null : JSON.stringify(form);
    text = json === null || !json.endsWith('}') ? null : json === '{}' ? '{' : json.slice(0, -1) + ',';
    formText.set(form, text);
  }
  return text;
}

/** The JSON of a queued event copied from `form` (if known) with its `id` set: exactly `JSON.stringify(queued)`. */
export function queuedJson(queued: QueuedEvent, form: BaseEvent | undefined): string {
  const text = form === undefined ? null : textOf(form);
  return text === null ? JSON.stringify(queued) : `${text}"id":${queued.id}}`;
}
