// The common long-poll, `GET /api/v1/events?queue_id=…&last_event_id=…`, answered from node's
// request listener without the framework's routing, hooks and reply: most requests a busy server
// gets are these, and that pipeline was a large part of each one's cost. It takes only the polls
// whose answer it can give exactly as the route in events.ts would (kept credentials that are
// accepted, plain parameters, a live queue held here, budget left) and gives the same answer,
// headers and all. Anything else goes to that route, untouched and uncounted, to be answered or
// refused there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.ts';
import type { QueueManager } from '../events/manager.ts';
import type { EventQueue, Waiter } from '../events/queue.ts';
import type { QueuedEvent } from '../events/types.ts';
import { keptBasicIdentity } from '../http/auth.ts';
import { errorAnswer } from '../http/errors.ts';
import { afterThisTurn } from '../http/route.ts';
import { BOT_TYPE } from '../lib/limits.ts';

const PREFIX = '/api/v1/events?';
const INT_RE = /^-?\d+$/;

interface PollParams {
  queueId: string;
  lastEventId: number | undefined;
  dontBlock: boolean;
}

/** A query value as the route would decode it; null for anything it might decode otherwise. */
function plainValue(raw: string): string | null {
  if (raw.includes('+')) return null;
  if (!raw.includes('%')) return raw;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return value.includes('\u0000') ? null : value;
}

/**
 * The poll's parameters when the query holds nothing but them, each once, in forms the route's
 * decoders accept as they are; null otherwise (the route decodes it, and names what is wrong).
 */
function pollParams(query: string): PollParams | null {
  let queueId: string | undefined;
  let lastEventId: number | undefined;
  let dontBlock: boolean | undefined;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const value = eq < 0 ? null : plainValue(part.slice(eq + 1));
    if (value === null) return null;
    switch (part.slice(0, eq)) {
      case 'queue_id':
        if (queueId !== undefined) return null;
        queueId = value;
        break;
      case 'last_event_id': {
        const n = Number(value);
        if (lastEventId !== undefined || !INT_RE.test(value) || !Number.isSafeInteger(n)) return null;
        lastEventId = n;
        break;
      }
      case 'dont_block':
        if (dontBlock !== undefined || (value !== 'true' && value !== 'false')) return null;
        dontBlock = value === 'true';
        break;
      default:
        return null;
    }
  }
  return queueId === undefined ? null : { queueId, lastEventId, dontBlock: dontBlock ?? false };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer): void {
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * A poll the queue answers: it waits on the queue as its waiter, then for the disk (as the route
 * layer does), and answers: one object a poll, with no promise made while it waits.
 */
class Poll implements Waiter {
  lastEventId = -1;
  readonly session = null;

  constructor(
    readonly app: AppContext,
    readonly queue: EventQueue,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly headers: Record<string, string>,
  ) {}

  start(queues: QueueManager, params: PollParams): void {
    const ready = queues.listen(this.queue, params.lastEventId, params.dontBlock, this);
    if (ready) return this.respond(ready);
    this.res.on('close', () => this.queue.abandon(this));
  }

  respond(events: QueuedEvent[]): void {
    void this.#answer(events, null);
  }

  fail(err: Error): void {
    void this.#answer(null, err);
  }

  /** Answers once what was committed is on disk; never rejects (an error is answered as the route's would be). */
  async #answer(events: QueuedEvent[] | null, failure: Error | null): Promise<void> {
    try {
      await this.app.db.sync();
      // As the route's answersAfterWriters: the send that woke this poll is answered first.
      await afterThisTurn();
    } catch (err) {
      failure = err as Error;
    }
    const { res, headers } = this;
    try {
      if (failure === null && events !== null) {
        headers['cache-control'] = 'no-store';
        return send(res, 200, headers, this.queue.eventsBytes(events, '{"result":"success","msg":"","events":', `,"queue_id":${JSON.stringify(this.queue.id)}}`));
      }
      const e = errorAnswer(failure!, true, this.app.log, this.req.url ?? '', 'GET');
      send(res, e.status, Object.assign(headers, e.headers), JSON.stringify(e.body));
    } catch (err) {
      this.app.log.error({ err }, 'could not answer a long-poll');
      res.destroy();
    }
  }
}

/**
 * The request listener's first look at a request: true when it took the request (a poll it
 * answers), false to leave it to the framework.
 */
export function pollAnswerer(app: AppContext): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const queues = app.queues;
    const url = req.url;
    if (queues === null || req.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) return false;
    // The route ignores a GET's body; a poll with one is rare enough to leave to it.
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
    const params = pollParams(url.slice(PREFIX.length));
    if (params === null) return false;
    const identity = keptBasicIdentity(app, req.headers.host, req.headers.authorization);
    if (identity === null || identity.user.bot_type === BOT_TYPE.INCOMING_WEBHOOK) return false;
    const queue = queues.held(params.queueId, identity.user.id);
    if (queue === null) return false;
    const headers: Record<string, string> = {};
    if (!app.limiter.countPoll(identity.user, headers)) return false;
    new Poll(app, queue, req, res, headers).start(queues, params);
    return true;
  };
}
