// Bots: creating, listing, changing, deactivating; API key regeneration for bots and oneself.
import { optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { BOT_TYPE, LIMITS } from '../lib/limits.ts';
import { avatarSquares, checkSetAvatar } from '../actions/avatars.ts';
import { badRequest } from '../lib/errors.ts';
import { checkCreateBot, checkDeactivateBot, checkRegenerateApiKey, checkUpdateBot } from '../actions/bots.ts';
import { visibleBots } from '../presenters/bot.ts';

/** A URL, JSON-encoded as the reference sends it, or plain. */
const urlParam = p.custom((raw) => {
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === 'string') return v;
  } catch {
    // a plain string
  }
  return raw;
});

/** An embedded bot's configuration: a dict of strings (embedded bots are not run here). */
const configData = p.json((v, name) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest(`${name} is not a dict`);
  for (const [k, x] of Object.entries(v)) if (typeof x !== 'string') throw badRequest(`${name}["${k}"] is not a string`);
  return v as Record<string, string>;
});

export const botRoutes = [
  route({
    method: 'POST',
    path: '/bots',
    auth: 'user',
    params: {
      full_name: p.string(),
      short_name: p.string(),
      bot_type: optional(p.int(), BOT_TYPE.GENERIC),
      payload_url: optional(urlParam),
      interface_type: optional(p.int(), 1),
      service_name: optional(p.string()),
      config_data: optional(configData),
      default_sending_stream: optional(p.string()),
      default_events_register_stream: optional(p.string()),
      default_all_public_streams: optional(p.bool(), false),
    },
    async handler({ app, realm, user, params }) {
      const { bot } = await checkCreateBot(app, user, realm, {
        fullName: params.full_name,
        shortName: params.short_name,
        botType: params.bot_type,
        payloadUrl: params.payload_url,
        interfaceType: params.interface_type,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
      });
      return {
        user_id: bot.user_id,
        api_key: bot.api_key,
        avatar_url: bot.avatar_url,
        default_sending_stream: bot.default_sending_stream,
        default_events_register_stream: bot.default_events_register_stream,
        default_all_public_streams: bot.default_all_public_streams,
      };
    },
  }),
  route({
    method: 'GET',
    path: '/bots',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      return { bots: await visibleBots(app, user, realm, true) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/bots/{bot_id}',
    auth: 'user',
    params: {
      bot_id: path(id()),
      full_name: optional(p.string()),
      bot_owner_id: optional(id()),
      default_sending_stream: optional(p.string()),
      default_events_register_stream: optional(p.string()),
      default_all_public_streams: optional(p.bool()),
      service_payload_url: optional(urlParam),
      service_interface: optional(p.int()),
      config_data: optional(configData),
    },
    // A multipart request may carry the bot's new avatar.
    fileMaxMib: LIMITS.maxAvatarFileSizeMib,
    async handler({ app, realm, user, params, file }) {
      // A file that is no image is refused before anything changes.
      const squares = file ? await avatarSquares(file) : null;
      const result = await checkUpdateBot(app, user, realm, params.bot_id, {
        fullName: params.full_name,
        botOwnerId: params.bot_owner_id,
        defaultSendingStream: params.default_sending_stream,
        defaultEventsRegisterStream: params.default_events_register_stream,
        defaultAllPublicStreams: params.default_all_public_streams,
        servicePayloadUrl: params.service_payload_url,
        serviceInterface: params.service_interface,
      });
      if (squares) result.avatar_url = await checkSetAvatar(app, user, realm, params.bot_id, squares);
      return result;
    },
  }),
  route({
    method: 'DELETE',
    path: '/bots/{bot_id}',
    auth: 'user',
    params: { bot_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkDeactivateBot(app, user, realm, params.bot_id);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/bots/{bot_id}/api_key/regenerate',
    auth: 'user',
    params: { bot_id: path(id()) },
    async handler({ app, realm, user, params }) {
      return { api_key: await checkRegenerateApiKey(app, user, realm, params.bot_id) };
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/api_key/regenerate',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      return { api_key: await checkRegenerateApiKey(app, user, realm) };
    },
  }),
];
