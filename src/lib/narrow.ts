// Narrows: parsing the two request forms, and resolving names and emails to IDs.
import type { Conn, Tx } from '../db/database.ts';
import type { User } from '../db/schema.ts';
import { findDmRecipient } from '../db/queries/recipients.ts';
import { streamById, streamByName } from '../db/queries/streams.ts';
import { userByEmail, userById } from '../db/queries/users.ts';
import type { Term } from '../db/queries/fetch.ts';
import { badRequest } from './errors.ts';
import { MAX_DB_ID } from './limits.ts';

export interface RawTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

// The resolved term is the fetch query's input, so its type is declared beside that query.
export type { Term };

const OPERATOR_ALIASES: Record<string, string> = {
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  subject: 'topic',
  channel: 'stream',
  channels: 'streams',
};

/** Accepts `[{operator, operand, negated?}, ...]` and `[[operator, operand], ...]`. */
export function parseNarrow(value: unknown, name = 'narrow'): RawTerm[] {
  if (!Array.isArray(value)) throw badRequest(`Invalid ${name}`);
  return value.map((el: unknown) => {
    if (Array.isArray(el)) {
      if (el.length !== 2 || typeof el[0] !== 'string') throw badRequest(`Invalid ${name}: each filter needs an operator and an operand`);
      return { operator: el[0], operand: el[1] as unknown, negated: false };
    }
    if (typeof el === 'object' && el !== null) {
      const o = el as Record<string, unknown>;
      if (typeof o.operator !== 'string' || !('operand' in o)) throw badRequest(`Invalid ${name}: each filter needs an operator and an operand`);
      if (o.negated !== undefined && typeof o.negated !== 'boolean') throw badRequest(`Invalid ${name}: negated must be a boolean`);
      return { operator: o.operator, operand: o.operand, negated: o.negated === true };
    }
    throw badRequest(`Invalid ${name}: a filter is an object or a two-element array`);
  });
}

type Q = Conn | Tx;

/** An ID operand past the database's integer range names no row: it is looked up as none. */
const inRange = (n: number): boolean => Number.isSafeInteger(n) && Math.abs(n) <= MAX_DB_ID;

async function resolveUser(db: Q, caller: User, operand: unknown): Promise<number | null> {
  if (typeof operand === 'number') return inRange(operand) ? ((await userById(db, caller.realm_id, operand))?.id ?? null) : null;
  if (typeof operand === 'string') {
    if (/^\d+$/.test(operand)) return inRange(Number(operand)) ? ((await userById(db, caller.realm_id, Number(operand)))?.id ?? null) : null;
    return (await userByEmail(db, caller.realm_id, operand.trim()))?.id ?? null;
  }
  throw badRequest('Invalid narrow operand: expected a user ID or email');
}

async function resolveUserList(db: Q, caller: User, operand: unknown): Promise<number[] | null> {
  const items: unknown[] = Array.isArray(operand)
    ? operand
    : typeof operand === 'string'
      ? operand.split(',').map((s) => s.trim()).filter(Boolean)
      : typeof operand === 'number'
        ? [operand]
        : [];
  if (items.length === 0) throw badRequest('Invalid narrow operand: expected a list of users');
  const ids: number[] = [];
  for (const item of items) {
    const id = await resolveUser(db, caller, item);
    if (id === null) return null;
    ids.push(id);
  }
  return ids;
}

export async function resolveNarrow(db: Q, caller: User, raw: RawTerm[]): Promise<Term[]> {
  const out: Term[] = [];
  for (const t of raw) {
    const op = OPERATOR_ALIASES[t.operator] ?? t.operator;
    const negated = t.negated;
    const operand = t.operand;
    switch (op) {
      case 'stream': {
        let stream;
        if (typeof operand === 'number' || (typeof operand === 'string' && /^\d+$/.test(operand))) {
          const byId = inRange(Number(operand)) ? await streamById(db, caller.realm_id, Number(operand)) : undefined;
          stream = byId ?? (typeof operand === 'string' ? await streamByName(db, caller.realm_id, operand) : undefined);
        } else if (typeof operand === 'string') {
          stream = await streamByName(db, caller.realm_id, operand);
        } else throw badRequest('Invalid narrow operand for stream');
        out.push({ kind: 'stream', streamId: stream?.id ?? null, negated });
        break;
      }
      case 'streams':
        if (operand !== 'public' && operand !== 'web-public') throw badRequest(`Invalid narrow operand for streams: ${String(operand)}`);
        out.push({ kind: 'streams-public', negated });
        break;
      case 'topic':
        if (typeof operand !== 'string') throw badRequest('Invalid narrow operand for topic');
        out.push({ kind: 'topic', topic: operand, negated });
        break;
      case 'sender':
        out.push({ kind: 'sender', userId: await resolveUser(db, caller, operand), negated });
        break;
      case 'dm': {
        const ids = await resolveUserList(db, caller, operand);
        const recipient = ids === null ? undefined : await findDmRecipient(db, caller.realm_id, [...ids, caller.id]);
        out.push({ kind: 'dm', recipientId: recipient?.id ?? null, negated });
        break;
      }
      case 'dm-including':
        out.push({ kind: 'dm-including', userId: await resolveUser(db, caller, operand), negated });
        break;
      case 'is': {
        const what = operand === 'private' ? 'dm' : operand;
        if (what !== 'dm' && what !== 'starred' && what !== 'unread' && what !== 'mentioned' && what !== 'alerted' && what !== 'resolved' && what !== 'followed') {
          throw badRequest(`Invalid narrow operand for is: ${String(operand)}`);
        }
        out.push({ kind: 'is', what, negated });
        break;
      }
      case 'has':
        if (operand !== 'link' && operand !== 'attachment' && operand !== 'image' && operand !== 'reaction') {
          throw badRequest(`Invalid narrow operand for has: ${String(operand)}`);
        }
        out.push({ kind: 'has', what: operand, negated });
        break;
      case 'id':
      case 'near': {
        const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand) ? Number(operand) : NaN;
        if (!Number.isSafeInteger(id)) throw badRequest(`Invalid narrow operand for ${op}`);
        // IDs start at 1: 0 names no message, as an ID past the range does.
        if (op === 'id') out.push({ kind: 'id', id: inRange(id) ? id : 0, negated });
        break;
      }
      case 'in':
        // `in:all` narrows nothing (negated too, as in the reference); `in:home` leaves out
        // muted streams and topics.
        if (operand === 'home') out.push({ kind: 'in-home', negated });
        else if (operand !== 'all') throw badRequest(`Invalid narrow operand for in: ${String(operand)}`);
        break;
      case 'search':
        if (typeof operand !== 'string') throw badRequest('Invalid narrow operand for search');
        out.push({ kind: 'search', query: operand, negated });
        break;
      default:
        throw badRequest(`Invalid narrow operator: unknown operator '${t.operator}'`);
    }
  }
  return out;
}
