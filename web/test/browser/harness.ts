// Browser tests' harness: a real server on a temporary database behind a TCP relay on a fixed
// port (so the page keeps its origin when the server restarts, and a dropped connection can be
// simulated), and Debian's Chromium driven by playwright-core (never a browser download).
import fs from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startServer, type Account, type StartOptions, type TestServer } from '../../../test/helpers/server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null; with CI=true they must run. */
export function browserSkipReason(): string | null {
  if (fs.existsSync(CHROMIUM)) {
    if (!fs.existsSync('web/dist/index.html') && !fs.existsSync(new URL('../../dist/index.html', import.meta.url))) {
      return 'the web app is not built: run `npm run build:web`';
    }
    return null;
  }
  const reason = `Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium`;
  if (process.env.CI === 'true' || process.env.PARLEY_BROWSER_TESTS === 'required') throw new Error(reason);
  return reason;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/** Relays a fixed local port to the current server; `cut()` drops every open connection. */
export class Relay {
  private server: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(public target: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  }
  listen(): Promise<void> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.port = (this.server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  }
  cut(): void {
    for (const s of this.sockets) s.destroy();
  }
  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface Env {
  server: TestServer;
  relay: Relay;
  url: string;
  browser: Browser;
  /**
   * Errors thrown and not caught in any page of this environment: `close` fails with them, so a
   * broken render fails its file even when the test's own steps happen to pass.
   */
  pageErrors: string[];
  /** Stops the server and starts it again on the same data, behind the same relay. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function setUp(opts: StartOptions = {}): Promise<Env> {
  let server = await startServer(opts);
  const relay = new Relay(Number(new URL(server.baseUrl).port));
  await relay.listen();
  const browser = await launchBrowser();
  const env: Env = {
    server,
    relay,
    // The realm has no subdomain: it is served on the bare host.
    url: `http://localhost:${relay.port}`,
    browser,
    pageErrors: [],
    async restart() {
      const dataDir = server.config.dataDir;
      const databaseUrl = server.databaseUrl;
      await server.close({ keepData: true });
      relay.cut();
      server = await startServer({ ...opts, dataDir, databaseUrl });
      env.server = server;
      relay.target = Number(new URL(server.baseUrl).port);
    },
    async close() {
      await browser.close();
      await relay.close();
      await server.close();
      if (env.pageErrors.length > 0) throw new Error(`uncaught errors in the web app:\n${env.pageErrors.join('\n')}`);
    },
  };
  return env;
}

/** A context whose waits give up after a few seconds: a failing step fails fast. */
export async function newContext(env: Env, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await env.browser.newContext({ viewport });
  context.setDefaultTimeout(8_000);
  context.on('weberror', (e) => env.pageErrors.push(`${e.page()?.url() ?? '(a page)'}: ${e.error().stack ?? e.error().message}`));
  return context;
}

export interface Person {
  context: BrowserContext;
  page: Page;
}

/**
 * A new browser context (its own cookies) logged in as `email`, on All messages (`#feed`); `hash`
 * '' opens the person's home view instead.
 */
export async function logIn(env: Env, email: string, password: string, viewport = { width: 1280, height: 800 }, hash = '#feed'): Promise<Person> {
  const context = await newContext(env, viewport);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[page error ${email}]`, e.stack ?? e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('401')) console.error(`[console ${email}]`, m.text());
  });
  await page.goto(`${env.url}/${hash}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // On a phone the sidebar is a closed drawer: present, not visible.
  await page.getByRole('navigation', { name: 'Streams', exact: true, includeHidden: true }).waitFor({ state: 'attached' });
  return { context, page };
}

export interface TwoPeopleOptions {
  /** Their full names; `roles` gives a role number to either (members otherwise). */
  names: [string, string];
  roles?: [number | undefined, number | undefined];
  /** Streams both are subscribed to, with the organization's owner too if `withOwner`. */
  streams: string[];
  withOwner?: boolean;
  /** Runs once the accounts exist, before they log in (what the first load should show). */
  beforeLogIn?: (a: Account, b: Account) => Promise<unknown>;
  /** Where each lands (logIn's `hash`). */
  hashes?: [string, string];
}

/** Two new accounts subscribed to the same streams, each logged in in their own browser context. */
export async function twoPeople(env: Env, o: TwoPeopleOptions): Promise<{ accounts: [Account, Account]; people: [Person, Person] }> {
  const accounts = await twoAccounts(env, o);
  await o.beforeLogIn?.(...accounts);
  const hashes = o.hashes ?? ['#feed', '#feed'];
  const people = await Promise.all([logIn(env, accounts[0].email, accounts[0].password!, undefined, hashes[0]), logIn(env, accounts[1].email, accounts[1].password!, undefined, hashes[1])]);
  return { accounts, people };
}

/** twoPeople's accounts and subscriptions, for a test that logs them in itself. */
export async function twoAccounts(env: Env, o: Pick<TwoPeopleOptions, 'names' | 'roles' | 'streams' | 'withOwner'>): Promise<[Account, Account]> {
  const a = await env.server.createUser(o.names[0], o.roles?.[0] === undefined ? undefined : { role: o.roles[0] });
  const b = await env.server.createUser(o.names[1], o.roles?.[1] === undefined ? undefined : { role: o.roles[1] });
  const principals = o.withOwner ? [a.email, b.email, env.server.owner.email] : [a.email, b.email];
  await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: o.streams.map((name) => ({ name })), principals });
  return [a, b];
}

/** With PARLEY_BROWSER_SHOTS=<dir>, saves each named page as `<test name>-<key>.png` (an afterEach: shows a failure). */
export async function shotsAfterTest(testName: string, pages: Record<string, Page | undefined>): Promise<void> {
  const dir = process.env.PARLEY_BROWSER_SHOTS;
  if (!dir) return;
  const name = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
  for (const [who, page] of Object.entries(pages)) await page?.screenshot({ path: `${dir}/${name}-${who}.png` }).catch(() => undefined);
}

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays on.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

/** Polls a condition of the page (a live change arrives by event, a moment later). */
export async function until(what: string, check: () => Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens a settings page by its URL (`#settings/profile`) and waits until the overlay has the focus. */
export async function openSettings(p: Person, hash: string): Promise<void> {
  await p.page.evaluate((h) => (location.hash = h), hash);
  await p.page.getByRole('dialog', { name: /settings/ }).waitFor();
  await p.page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') != null);
}
