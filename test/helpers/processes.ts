// Running `parley` itself as child processes (deployment tests on PostgreSQL and Redis).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { formRequest } from './server.ts';

const bin = path.resolve('bin/parley.js');

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

export function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`parley ${args[0]} exited ${code}: ${err}`))));
  });
}

/** `parley serve` on a port, once it answers. */
export async function serve(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`parley serve on port ${port} did not start`);
}

export const stopped = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** An API caller for one account against a process on `port`. */
export function caller(email: string, apiKey: string) {
  const auth = 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
  return async (port: number, method: string, p: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    const res = await formRequest(`http://127.0.0.1:${port}/api/v1${p}`, method, { authorization: auth }, params);
    return JSON.parse(res.text) as Record<string, any>;
  };
}
