import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { Express, NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import { correlationIdOf } from '../../../shared/context/correlation-id';
import { sendError } from '../../../shared/errors/error-response';
import type { IngestAckResponse } from '../dto/ingest-ack.response.dto';
import { IngestAnswer, IngestRequests } from './ingest-requests';
import { IngestionAuthenticator, IngestionCaller } from './ingestion-token.guard';

/** A middleware of the Express stack that the fast path runs as well (correlation id and headers, metrics and access log). */
export type SharedMiddleware = (req: Request, res: Response, next: NextFunction) => void;

type Answer = (requests: IngestRequests, caller: IngestionCaller, req: Request, correlationId: string) => Promise<IngestAnswer>;

/**
 * The request lines the fast path answers, exactly as network servers send them: anything else (another query,
 * a trailing slash, other casing) goes through Express and Nest to the same rules.
 */
const ROUTES = new Map<string, { path: string; answer: Answer }>([
  ['/v1/ingestion/chirpstack?event=up', { path: '/v1/ingestion/chirpstack', answer: (r, caller, req, id) => r.chirpstack(caller, 'up', req, id) }],
  ['/v1/ingestion/tts', { path: '/v1/ingestion/tts', answer: (r, caller, req, id) => r.tts(caller, req, id) }],
  ['/v1/ingestion/http', { path: '/v1/ingestion/http', answer: (r, caller, req, id) => r.http(caller, req, id) }],
]);

/**
 * Answers the webhooks' uplinks on the HTTP server before Express routing and Nest's request pipeline, which cost
 * more than the rest of an acknowledgement together. The same code as the routed path, in the same order: the
 * stack's own first middlewares (correlation id, the headers every answer carries, the request context; then
 * metrics and the access log line), the token check (IngestionAuthenticator), the webhook rules and the intake
 * (IngestRequests), and failures through sendError (the error envelope). Requests are given Express's request and
 * response prototypes, as Express does, so the shared code sees the objects it always sees. A request from a
 * browser (an Origin header: CORS applies) or any other request line goes through Express untouched; the
 * controller keeps the routes for that and for the OpenAPI document.
 */
@Injectable()
export class IngestFastPath {
  constructor(
    private readonly authenticator: IngestionAuthenticator,
    private readonly requests: IngestRequests,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(IngestFastPath.name);
  }

  /** Puts the fast path in front of `app` (the listener of `server`), running `shared` first on every request it answers. */
  install(server: Server, app: Express, shared: readonly SharedMiddleware[]): void {
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const route = req.method === 'POST' && req.headers.origin === undefined ? ROUTES.get(req.url ?? '') : undefined;
      if (route === undefined) {
        for (const listener of listeners) listener.call(server, req, res);
        return;
      }
      const request = req as Request;
      const response = res as Response;
      // What Express's own first layer does to every request (expressInit), and the route it would match. A server
      // made by ExpressObjectsAdapter creates both objects with these prototypes already.
      if (Object.getPrototypeOf(request) !== app.request) Object.setPrototypeOf(request, app.request);
      if (Object.getPrototypeOf(response) !== app.response) Object.setPrototypeOf(response, app.response);
      request.res = response;
      response.req = request;
      response.locals ??= Object.create(null) as Response['locals'];
      request.originalUrl = req.url!;
      request.baseUrl = '';
      (request as { route?: unknown }).route = { path: route.path };
      let index = 0;
      const next = (): void => {
        const middleware = shared[index++];
        if (middleware) middleware(request, response, next);
        else void this.answer(route.answer, request, response);
      };
      next();
    });
  }

  private async answer(answer: Answer, req: Request, res: Response): Promise<void> {
    try {
      const caller = await this.authenticator.authenticate(req.headers.authorization);
      const result = await answer(this.requests, caller, req, correlationIdOf(req));
      if (result.status === 202) sendAck(res, result.ack);
      else res.status(204).send();
    } catch (error) {
      sendError(res, error, correlationIdOf(req), this.logger);
    }
  }
}

/**
 * The 202 as Express's `res.json` writes it (same status line and headers), without its generic work per answer
 * (the JSON replacer settings, string-to-Buffer conversion, freshness and ETag checks), which cost about as much as
 * the rest of the answer: the body goes out with the headers in one write.
 */
function sendAck(res: Response, ack: IngestAckResponse): void {
  const body = JSON.stringify(ack);
  res.statusCode = 202;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
