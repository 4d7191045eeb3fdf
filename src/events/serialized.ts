// An event's JSON, made once per client form. A published event reaches many queues in a few
// distinct forms (the manager shares one form object between the clients with the same form
// key); each queue holds its own copy with its queue-local id, and a poll's answer is put
// together from the form's JSON text with that id appended, not by serializing the event again.
// The long-poll's answer (routes/events-poll.ts) takes the form's UTF-8 bytes instead, also made
// once, and copies them into each answer: as text, every queue's answer was a string as long as
// all its events, made, flattened and encoded again for the socket. At 1,000 sends a second to 50
// pollers that was some 40% of what the server allocated; as bytes, the young generation's
// collections came a quarter less often (issue 19).
import type { BaseEvent, QueuedEvent } from './types.ts';

interface FormJson {
  /** The form's JSON without the closing brace, and a comma: the queued copy's `"id":N}` follows. */
  text: string;
  /** `text` in UTF-8, made when first asked for. */
  bytes: Buffer | null;
}

/** Each shared form's JSON; null when the form has its own `id`. */
const formJson = new WeakMap<BaseEvent, FormJson | null>();

function jsonOf(form: BaseEvent): FormJson | null {
  let made = formJson.get(form);
  if (made === undefined) {
    // A queued event is a copy of its form with `id` set (EventQueue.push): `id` is last unless
    // the form has one of its own (then in its place).
    const json = Object.hasOwn(form, 'id') ? null : JSON.stringify(form);
    made = json === null || !json.endsWith('}') ? null : { text: json === '{}' ? '{' : json.slice(0, -1) + ',', bytes: null };
    formJson.set(form, made);
  }
  return made;
}

/** The JSON of a queued event copied from `form` (if known) with its `id` set: exactly `JSON.stringify(queued)`. */
export function queuedJson(queued: QueuedEvent, form: BaseEvent | undefined): string {
  const made = form === undefined ? null : jsonOf(form);
  return made === null ? JSON.stringify(queued) : `${made.text}"id":${queued.id}}`;
}

/**
 * `head`, the JSON array of these queued events (`forms[i]` the form `events[i]` was copied from,
 * if known), and `tail`, as UTF-8 bytes: the same bytes as `head + '[' + … + ']' + tail`.
 */
export function queuedJsonBytes(events: readonly QueuedEvent[], forms: readonly (BaseEvent | undefined)[], head: string, tail: string): Buffer {
  // The pieces: a form's shared bytes, or text (the queue-local ids, punctuation, events without
  // a shared form); measured first, then copied into one buffer.
  const pieces: (Buffer | string)[] = [head + '['];
  let size = Buffer.byteLength(pieces[0] as string);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const form = forms[i];
    const made = form === undefined ? null : jsonOf(form);
    const comma = i === 0 ? '' : ',';
    if (made === null) {
      const text = comma + JSON.stringify(e);
      pieces.push(text);
      size += Buffer.byteLength(text);
      continue;
    }
    made.bytes ??= Buffer.from(made.text);
    const id = `"id":${e.id}}`;
    if (comma) pieces.push(comma);
    pieces.push(made.bytes, id);
    size += comma.length + made.bytes.length + id.length; // the id and comma are ASCII
  }
  const end = ']' + tail;
  pieces.push(end);
  size += Buffer.byteLength(end);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces) at += typeof p === 'string' ? out.write(p, at) : p.copy(out, at);
  return out;
}
