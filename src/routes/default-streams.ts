// Default streams and default stream groups.
import { optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import {
  checkAddDefaultStream,
  checkCreateDefaultStreamGroup,
  checkRemoveDefaultStream,
  checkRemoveDefaultStreamGroup,
  checkUpdateDefaultStreamGroup,
  checkUpdateDefaultStreamGroupStreams,
} from '../actions/default-streams.ts';

export const defaultStreamRoutes = [
  route({
    method: 'POST',
    path: '/default_streams',
    auth: 'user',
    params: { stream_id: id() },
    async handler({ app, realm, user, params }) {
      await checkAddDefaultStream(app, user, realm, params.stream_id);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/default_streams',
    auth: 'user',
    params: { stream_id: id() },
    async handler({ app, realm, user, params }) {
      await checkRemoveDefaultStream(app, user, realm, params.stream_id);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/default_stream_groups/create',
    auth: 'user',
    params: { group_name: p.string(), description: optional(p.string({ maxLength: 1024 }), ''), stream_names: p.stringList() },
    async handler({ app, realm, user, params }) {
      await checkCreateDefaultStreamGroup(app, user, realm, { name: params.group_name, description: params.description, streamNames: params.stream_names });
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/default_stream_groups/{group_id}',
    auth: 'user',
    params: { group_id: path(id()), new_group_name: optional(p.string()), new_description: optional(p.string({ maxLength: 1024 })) },
    async handler({ app, realm, user, params }) {
      await checkUpdateDefaultStreamGroup(app, user, realm, params.group_id, { name: params.new_group_name, description: params.new_description });
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/default_stream_groups/{group_id}/streams',
    auth: 'user',
    params: { group_id: path(id()), op: p.oneOf(['add', 'remove'] as const), stream_names: p.stringList() },
    async handler({ app, realm, user, params }) {
      await checkUpdateDefaultStreamGroupStreams(app, user, realm, params.group_id, params.op, params.stream_names);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/default_stream_groups/{group_id}',
    auth: 'user',
    params: { group_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkRemoveDefaultStreamGroup(app, user, realm, params.group_id);
      return {};
    },
  }),
];
