import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

type NodeConstructor = (this: object, ...args: never[]) => void;

/**
 * A constructor that runs Node's own `base` constructor on an object born with `prototype` (Express's request or
 * response object, whose chain ends in Node's prototype), for the `IncomingMessage` / `ServerResponse` options of
 * `http.createServer`.
 */
function bornWith<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  const construct = function (this: object, ...args: never[]) {
    (base as unknown as NodeConstructor).apply(this, args);
  };
  construct.prototype = prototype;
  return construct as unknown as T;
}

/**
 * Nest's Express adapter, with an HTTP server whose requests and responses are created with Express's request and
 * response prototypes. Express gives every request those prototypes in its first layer by `Object.setPrototypeOf`,
 * which moves each object to another hidden class and leaves the property lookups on it slow; an object born with
 * them is the same object to every middleware and handler, and Express's own assignment becomes a no-op. HTTPS and
 * `forceCloseConnections` (neither used: TLS ends at the ingress, and shutdown drains) keep Nest's server.
 */
export class ExpressObjectsAdapter extends ExpressAdapter {
  override initHttpServer(options: Parameters<ExpressAdapter['initHttpServer']>[0]): void {
    if (options?.httpsOptions || options?.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = createServer({ IncomingMessage: bornWith(IncomingMessage, app.request), ServerResponse: bornWith(ServerResponse, app.response) }, app);
  }
}
