// The logger each request gets. Fastify asks for a child logger bound to the request's id on
// every request, and pino builds all the log methods of a child anew; a long-poll holds its child
// for a minute. Requests log only warnings and errors, so the child is built when a request first
// logs at a level that is enabled.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

export class RequestLogger {
  #child: Logger | null = null;
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** Fastify's `childLoggerFactory`. */
  static factory(this: void, parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
    return new RequestLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
  }

  #logger(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === null && this.#options.level === undefined && !this.#parent.isLevelEnabled(level)) return;
    const logger = this.#logger();
    (logger[level] as (...a: unknown[]) => void).apply(logger, args);
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options) as unknown as FastifyBaseLogger;
  }
}
