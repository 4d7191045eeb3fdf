// Checks response bodies against the reference OpenAPI document, with the spec's renames.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { referenceDir } from './reference.ts';

const RENAMES: [string, string][] = [
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
    if (k === 'additionalProperties' && v === false) continue;
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
    out[k === 'oneOf' ? 'anyOf' : k] = relax(v, k === 'allOf' ? inherited : new Set());
  }
  if (obj.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function load(): Operation[] | null {
  const dir = referenceDir();
  if (!dir) return null;
  let text = fs.readFileSync(path.join(dir, 'zulip-openapi.yaml'), 'utf8');
  for (const [from, to] of RENAMES) text = text.replaceAll(from, to);
  const doc = relax(parse(text)) as Json;
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
  const p = apiPath.replace(/^\/api\/v1/, '').split('?')[0]!;
  const candidates = operations.filter((o) => o.method === method && o.pattern.test(p));
  if (candidates.length === 0) return [];
  const ordered = [...candidates.filter((c) => c.isStatic), ...candidates.filter((c) => !c.isStatic)];
  let errors: string[] = [];
  for (const op of ordered) {
    if (op.validate(body)) return [];
    errors = (op.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
  return errors;
}

export const referenceAvailable = (): boolean => {
  if (operations === undefined) operations = load();
  return operations !== null;
};
