// The image proxy (outside /api/v1): external images of rendered messages, fetched by the server
// so that viewers never contact the image's host. Only URLs the server signed are fetched.
import { route, SENT } from '../http/route.ts';
import { p, path } from '../http/params.ts';
import { notFound } from '../lib/errors.ts';
import { PROXY_IMAGE_TYPES, verifyImageProxyPath } from '../lib/image-proxy.ts';
import { LIMITS } from '../lib/limits.ts';
import { outgoingGet, OutgoingError } from '../lib/outgoing.ts';

const unavailable = () => notFound('Image not available');

export const imageProxyRoutes = [
  route({
    method: 'GET',
    path: '/external_content/{digest}/{hex}',
    // No credentials: images load in <img> tags of any client; the signature is the permission.
    auth: 'server',
    // A separate service in the reference (camo), outside its request limits: one page shows many
    // images; what bounds the fetches is their signatures and the per-process fetch slots.
    rateLimit: 'none',
    params: { digest: path(p.string()), hex: path(p.string()) },
    async handler({ app, params, reply }) {
      const url = verifyImageProxyPath(app.imageProxyKey, params.digest, params.hex);
      if (url === undefined) throw notFound('Invalid image proxy URL');
      let got;
      try {
        got = await app.fetchSlots.images.run(() =>
          outgoingGet(url, { timeoutMs: LIMITS.imageProxyTimeoutMs, maxBytes: LIMITS.imageProxyMaxBytes, allowPrivate: app.config.previewAllowPrivate, accept: 'image/*' }),
        );
      } catch (err) {
        if (err instanceof OutgoingError) throw unavailable();
        throw err;
      }
      const type = got.contentType.split(';')[0]!.trim().toLowerCase();
      if (got.status !== 200 || !PROXY_IMAGE_TYPES.has(type)) throw unavailable();
      reply.headers({
        'content-type': type,
        'content-length': String(got.body.length),
        'x-content-type-options': 'nosniff',
        // As camo: nothing of the image's may run or load anything, even opened on its own.
        'content-security-policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
        'cache-control': 'public, max-age=86400',
      });
      void reply.send(got.body);
      return SENT;
    },
  }),
];
