// What bench/web.ts runs inside the page, and the part of playwright-core's API it uses (typed
// here so that the bench type-checks where the web client's dev dependencies are not installed).

export interface PwLocator {
  fill(value: string): Promise<void>;
  click(): Promise<void>;
  waitFor(): Promise<void>;
}

export interface PwPage {
  goto(url: string): Promise<unknown>;
  on(event: 'pageerror', listener: (e: unknown) => void): void;
  addInitScript(script: string): Promise<void>;
  getByRole(role: string, options?: { name: string }): PwLocator;
  evaluate(expression: string): Promise<unknown>;
}

export interface PwContext {
  setDefaultTimeout(ms: number): void;
  newPage(): Promise<PwPage>;
  close(): Promise<void>;
}

export interface PwBrowser {
  newContext(options: { viewport: { width: number; height: number } }): Promise<PwContext>;
  close(): Promise<void>;
}

/**
 * Installed before the app's own scripts. Records, as epoch milliseconds on the page's clock:
 * `click`, the "Log in" click event's time; `firstArticle`, once a message `article` inside the
 * `main` landmark has been added and a frame painted after it (a task queued from the next
 * animation frame runs after that frame's paint); `live[n]`, the same for the article whose text
 * holds `bench-live-n`. A string, not a function: the page must not see the bench's transpiled code.
 */
export const INSTRUMENT = `(() => {
  const bench = { click: 0, firstArticle: 0, live: {} };
  window.__bench = bench;
  const now = () => performance.timeOrigin + performance.now();
  const afterPaint = (done) => requestAnimationFrame(() => setTimeout(() => done(now()), 0));
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button && button.textContent.trim() === 'Log in') bench.click = performance.timeOrigin + e.timeStamp;
  }, true);
  let firstPending = false;
  const pending = new Set();
  const seen = (article) => {
    if (!article.closest('main')) return;
    if (!firstPending && bench.click > 0) {
      firstPending = true;
      afterPaint((t) => (bench.firstArticle = t));
    }
    const m = /bench-live-(\\d+)/.exec(article.textContent || '');
    if (m && !pending.has(m[1])) {
      pending.add(m[1]);
      afterPaint((t) => (bench.live[m[1]] = t));
    }
  };
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.tagName === 'ARTICLE') seen(node);
        for (const a of node.querySelectorAll('article')) seen(a);
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();`;
