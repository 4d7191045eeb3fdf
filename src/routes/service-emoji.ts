// The image of the server's own emoji (`:parley:`), outside /api/v1 like the reference's.
import { route, SENT } from '../http/route.ts';
import { SERVICE_EMOJI_PATH, serviceEmojiImage } from '../lib/service-emoji.ts';

export const serviceEmojiRoutes = [
  route({
    method: 'GET',
    path: `${SERVICE_EMOJI_PATH}parley.svg`,
    auth: 'server',
    // Served as a static file by the reference, outside its request limits.
    rateLimit: 'none',
    params: {},
    async handler({ reply }) {
      const body = serviceEmojiImage();
      reply.headers({
        'content-type': 'image/svg+xml',
        'content-length': String(body.length),
        'x-content-type-options': 'nosniff',
        // Our own file, but an SVG opened on its own is a document: let it run nothing.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'cache-control': 'public, max-age=86400',
      });
      void reply.send(body);
      return SENT;
    },
  }),
];
