// A minimal HTTP client for the benches: form-encoded parameters, Basic auth, JSON answers, one
// keep-alive agent with no limit on sockets (long-polls hold theirs).
import http from 'node:http';

export interface Reply {
  status: number;
  body: Record<string, any>;
}

export type Call = (method: string, path: string, auth: string, params?: Record<string, unknown>) => Promise<Reply>;

/** Calls the API at `base` (…/api/v1); `agent` to destroy when done. */
export function apiClient(base: string): { call: Call; agent: http.Agent } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const call: Call = (method, path, auth, params = {}) => {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const body = method === 'GET' ? '' : form.toString();
    const url = new URL(base + path + (method === 'GET' && body === '' ? `?${form.toString()}` : ''));
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent,
          headers: {
            host: 'localhost',
            authorization: `Basic ${Buffer.from(auth).toString('base64')}`,
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any> }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
  return { call, agent };
}

/** Makes `n` members through the owner's credentials; their `email:apiKey` credentials. */
export async function createUsers(call: Call, owner: string, n: number): Promise<string[]> {
  const users: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `u${i}@example.com`;
    await call('POST', '/users', owner, { email, password: `password-${i}-x`, full_name: `User ${i}` });
    const key = await call('POST', '/fetch_api_key', owner, { username: email, password: `password-${i}-x` });
    users.push(`${email}:${String(key.body.api_key)}`);
  }
  return users;
}
