// Uploading files, listing and deleting one's uploads, and fetching uploaded files.
import fs from 'node:fs';
import { id } from '../http/ids.ts';
import { route, SENT } from '../http/route.ts';
import { p, path } from '../http/params.ts';
import { attachmentsOfOwner, uploadSpaceUsed } from '../db/queries/attachments.ts';
import { accessUploadedFile } from '../lib/access-uploads.ts';
import { badRequest, fileNotFound } from '../lib/errors.ts';
import { receiveFile, servingHeaders, storedFilePath } from '../lib/uploads.ts';
import { attachmentsJson, checkCreateAttachment, checkDeleteAttachment } from '../actions/uploads.ts';

/** Under /api/v1. */
export const uploadApiRoutes = [
  route({
    method: 'POST',
    path: '/user_uploads',
    auth: 'user',
    params: {},
    streamBody: true,
    async handler({ app, realm, user, http }) {
      const file = await receiveFile(app.config, http);
      return { ...(await checkCreateAttachment(app, user, realm, file)) };
    },
  }),
  route({
    method: 'GET',
    path: '/attachments',
    auth: 'user',
    params: {},
    async handler({ app, user }) {
      const attachments = await attachmentsJson(app, await attachmentsOfOwner(app.db.kysely, user.id));
      return { attachments, upload_space_used: await uploadSpaceUsed(app.db.kysely, user.realm_id) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/attachments/{attachment_id}',
    auth: 'user',
    params: { attachment_id: path(id()) },
    async handler({ app, user, params }) {
      await checkDeleteAttachment(app, user, params.attachment_id);
      return {};
    },
  }),
];

/** Outside /api/v1: the files themselves, at the URLs uploads answer with. */
export const uploadFileRoutes = [
  route({
    method: 'GET',
    path: '/user_uploads/*',
    auth: 'user',
    params: { '*': path(p.string()) },
    async handler({ app, user, params, reply }) {
      const pathId = params['*'];
      // Paths are looked up, never joined to the disk path as given; this refuses odd ones early.
      if (pathId.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') || /[\\\0]/.test(pathId)) {
        throw badRequest('Invalid file path');
      }
      const a = await accessUploadedFile(app.db.kysely, user, pathId);
      const file = storedFilePath(app.config, a.path_id);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) throw fileNotFound();
      reply.headers({ ...servingHeaders(a.content_type, a.file_name), 'content-length': String(stat.size) });
      void reply.send(fs.createReadStream(file));
      return SENT;
    },
  }),
];
