// Checks response bodies against the reference OpenAPI document, with the spec's renames.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { referenceDir } from './reference.ts';

export const RENAMES: [string, string][] = [
  ['zulip_version', 'service_version'],
  ['zulip_feature_level', 'service_feature_level'],
  ['zulip_merge_base', 'service_merge_base'],
  ['zulip_extra_emoji', 'service_extra_emoji'],
  ['zulip_plan_is_not_limited', 'service_plan_is_not_limited'],
  ['client_gravatar', 'client_external_avatar'],
  ['realm_jitsi_server_url', 'realm_video_chat_server_url'],
  ['server_jitsi_server_url', 'server_video_chat_server_url'],
  ['jitsi_server_url', 'video_chat_server_url'],
  ['giphy_rating_options', 'gif_rating_options'],
  ['realm_is_zephyr_mirror_realm', 'realm_is_mirror_realm'],
];

type Json = Record<string, unknown>;

interface Operation {
  pattern: RegExp;
  isStatic: boolean;
  method: string;
  validate: ValidateFunction;
}

let operations: Operation[] | null | undefined;

/**
 * Turns the OpenAPI dialect into JSON Schema for ajv: `nullable` becomes a 'null' type (also
 * where an allOf part marks a property of a sibling part nullable), and `additionalProperties:
 * false` is dropped, as the spec keeps fields the newer reference renamed (so `oneOf` is
 * checked as `anyOf`).
 */
let keepClosed = false;
// local_message_id: the reference server adds it to the sending client's message event without
// documenting it.
const SPEC_ONLY_FIELDS = ['can_remove_subscribers_group_id', 'is_billing_admin', 'local_message_id'];

function relax(node: unknown, nullableProps: Set<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((n) => relax(n, nullableProps));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Json;
  let inherited = nullableProps;
  if (Array.isArray(obj.allOf)) {
    inherited = new Set(nullableProps);
    for (const part of obj.allOf as Json[]) {
      for (const [name, prop] of Object.entries((part?.properties as Json | undefined) ?? {})) {
        if ((prop as Json | null)?.nullable === true) inherited.add(name);
      }
    }
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'additionalProperties' && v === false && !keepClosed) continue;
    if (k === 'example' || k === 'examples' || k === 'description' || k === 'nullable') continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) {
      const props: Json = {};
      for (const [name, prop] of Object.entries(v as Json)) {
        const relaxed = relax(prop, new Set()) as Json;
        if (((prop as Json | null)?.nullable === true || inherited.has(name)) && typeof relaxed.type === 'string') {
          relaxed.type = [relaxed.type, 'null'];
        }
        props[name] = relaxed;
      }
      out[k] = props;
      continue;
    }
    // Without `additionalProperties: false` the branches of a oneOf can overlap (modern and
    // legacy presence formats both match), so exactly-one becomes at-least-one.
    // (Event schemas are kept closed, so their oneOf stays exactly-one.)
    out[k === 'oneOf' && !keepClosed ? 'anyOf' : k] = relax(v, k === 'allOf' ? inherited : new Set());
  }
  if (obj.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (keepClosed && out.additionalProperties === false && typeof out.properties === 'object' && out.properties !== null) {
    // Fields the spec names that the newer reference renamed or dropped stay allowed.
    const props = out.properties as Json;
    for (const f of SPEC_ONLY_FIELDS) if (!(f in props)) props[f] = {};
  }
  return out;
}

/**
 * Register fields whose shape at our feature level (186) differs from the newer reference: the
 * spec's `realm_default_streams` holds stream objects (the reference switched to IDs at 330), and
 * streams have no `is_archived`, `is_recently_active` or `can_subscribe_group` yet (315-357).
 */
const REGISTER_AT_OUR_LEVEL: Record<string, Json> = {
  realm_default_streams: { type: 'array', items: { type: 'object' } },
  streams: { type: 'array', items: { type: 'object' } },
};

function patchRegister(doc: Json): void {
  const post = ((doc.paths as Json)['/register'] as Json | undefined)?.post as Json | undefined;
  const schema = ((((post?.responses as Json | undefined)?.['200'] as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined)
    ?.schema as Json | undefined;
  for (const part of (schema?.allOf as Json[] | undefined) ?? []) {
    const props = part.properties as Json | undefined;
    if (!props) continue;
    for (const [name, replacement] of Object.entries(REGISTER_AT_OUR_LEVEL)) if (name in props) props[name] = replacement;
  }
}

function load(): Operation[] | null {
  const dir = referenceDir();
  if (!dir) return null;
  let text = fs.readFileSync(path.join(dir, 'zulip-openapi.yaml'), 'utf8');
  for (const [from, to] of RENAMES) text = text.replaceAll(from, to);
  const doc = relax(parse(text)) as Json;
  patchRegister(doc);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'ref', components: doc.components }, 'ref');
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const schema = ((((op as Json).responses as Json | undefined)?.['200'] as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
      if (!schema?.schema) continue;
      const fixed = JSON.parse(JSON.stringify(schema.schema).replaceAll('"#/components/', '"ref#/components/')) as Json;
      const pattern = new RegExp('^' + p.replace(/\{[^}]+\}/g, '[^/]+') + '$');
      ops.push({ pattern, isStatic: !p.includes('{'), method: method.toUpperCase(), validate: ajv.compile(fixed) });
    }
  }
  return ops;
}

/** Returns a list of schema violations (empty when valid or when no reference schema applies). */
export function checkResponse(method: string, apiPath: string, body: unknown): string[] {
  if (operations === undefined) operations = load();
  if (!operations) return [];
  const p = apiPath.replace(/^\/(api\/v1|json)\//, '/').split('?')[0]!;
  // Events are checked one by one against the schema of their own type (see checkEvent).
  if (method === 'GET' && p === '/events') {
    const events = (body as { events?: unknown }).events;
    if (!Array.isArray(events)) return ['/events is not an array'];
    return events.flatMap((e: Record<string, unknown>, i) => checkEvent(e).map((err) => `/events/${i}${err}`));
  }
  const candidates = operations.filter((o) => o.method === method && o.pattern.test(p));
  if (candidates.length === 0) return [];
  const ordered = [...candidates.filter((c) => c.isStatic), ...candidates.filter((c) => !c.isStatic)];
  let errors: string[] = [];
  for (const op of ordered) {
    if (op.validate(body)) return [];
    errors = (op.validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
      .filter((e) => !LEVEL_186_SHAPES.some((known) => known.test(e)));
    if (errors.length === 0) return [];
  }
  return errors;
}

/**
 * Where our feature level (186) has an older shape than the newer reference: at 186 the
 * register snapshot's authentication methods are booleans (objects from level 227) and default
 * streams are stream objects, as the spec says (IDs in the newer reference).
 */
const LEVEL_186_SHAPES = [
  /^\/realm_authentication_methods\/\w+ must be object/,
  /^\/realm_default_streams\/\d+ must be integer/,
  /^\/realm_default_stream_groups\/\d+\/streams\/\d+ must be integer/,
];

export const referenceAvailable = (): boolean => {
  if (operations === undefined) operations = load();
  return operations !== null;
};

interface EventVariant {
  types: string[];
  ops: string[] | null;
  validate: ValidateFunction;
}

let eventVariants: EventVariant[] | null | undefined;

function enumOf(prop: Json | undefined): string[] | null {
  if (!prop) return null;
  if (Array.isArray(prop.enum)) return prop.enum as string[];
  for (const part of (prop.allOf as Json[] | undefined) ?? []) {
    if (Array.isArray(part.enum)) return part.enum as string[];
  }
  return null;
}

/** Stream fields the reference added after our feature level (186); events need not carry them. */
const NEWER_STREAM_FIELDS = new Set(['is_archived', 'is_recently_active', 'can_subscribe_group']);

function dropNewerRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropNewerRequired);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    out[k] = k === 'required' && Array.isArray(v) ? v.filter((f) => !NEWER_STREAM_FIELDS.has(String(f))) : dropNewerRequired(v);
  }
  return out;
}

function loadEvents(): EventVariant[] | null {
  const dir = referenceDir();
  if (!dir) return null;
  let text = fs.readFileSync(path.join(dir, 'zulip-openapi.yaml'), 'utf8');
  for (const [from, to] of RENAMES) text = text.replaceAll(from, to);
  // Event schemas stay closed: an event with a field the reference lacks (say, an internal one
  // that leaked) fails, and the oneOf alternatives of an event stay distinguishable.
  keepClosed = true;
  const doc = dropNewerRequired(relax(parse(text))) as Json;
  keepClosed = false;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'ref', components: doc.components }, 'ref');
  const get = ((doc.paths as Json)['/events'] as Json).get as Json;
  const schema = ((((get.responses as Json)['200'] as Json).content as Json)['application/json'] as Json).schema as Json;
  const parts = schema.allOf as Json[];
  const events = parts.map((p) => (p.properties as Json | undefined)?.events as Json | undefined).find(Boolean)!;
  const variants = (events.items as Json).oneOf as Json[];
  return variants.map((v) => {
    const fixed = JSON.parse(JSON.stringify(v).replaceAll('"#/components/', '"ref#/components/')) as Json;
    // Some events (reaction) put their properties inside an allOf.
    const parts = [v, ...((v.allOf as Json[] | undefined) ?? [])];
    const props = Object.assign({}, ...parts.map((p) => (p.properties ?? {}) as Json)) as Json;
    return { types: enumOf(props.type as Json) ?? [], ops: enumOf(props.op as Json), validate: ajv.compile(fixed) };
  });
}

/**
 * Checks one event (as a client receives it) against the reference's event schemas with the
 * same type (and op); returns the violations, or a note when no schema has that type.
 */
export function checkEvent(event: Record<string, unknown>): string[] {
  if (eventVariants === undefined) eventVariants = loadEvents();
  if (!eventVariants) return [];
  const candidates = eventVariants.filter((v) => v.types.includes(String(event.type)) && (v.ops === null || v.ops.includes(String(event.op))));
  if (candidates.length === 0) return [`no reference schema for event type ${String(event.type)} op ${String(event.op)}`];
  const eventType = String(event.type);
  let errors: string[] = [];
  for (const c of candidates) {
    if (c.validate(event)) return [];
    errors = (c.validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
      .filter((e) => !EVENT_LEVEL_186_SHAPES.some(([type, known]) => type === eventType && known.test(e)));
    if (errors.length === 0) return [];
  }
  return errors;
}

/** Event shapes of our feature level (186) that the newer reference changed (typing's "private" became "direct" at 215). */
const EVENT_LEVEL_186_SHAPES: [string, RegExp][] = [
  ['typing', /^\/message_type must be equal to one of the allowed values \{"allowedValues":\["direct","stream"\]\}/],
  // Default streams are stream objects at 186, as in the snapshot (LEVEL_186_SHAPES).
  ['default_streams', /^\/default_streams\/\d+ must be integer/],
  ['default_stream_groups', /^\/default_stream_groups\/\d+\/streams\/\d+ must be integer/],
  ['update_message', /^\/ must NOT have additional properties \{"additionalProperty":"prev_rendered_content_version"\}/],
  // Deleted streams are whole stream objects before level 343.
  ['stream', /^\/streams\/\d+ must NOT have additional properties/],
];
