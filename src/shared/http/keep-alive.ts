import type { Server } from 'node:http';

/*
 * An idle keep-alive connection must be closed by the client, never by the server: a request the client writes on
 * the connection while the server closes it is lost ("other side closed"), and a POST is not retried. Node's 5 s
 * default loses that race against load balancers (60 s idle) and against clients whose timers run late under load.
 * The Keep-Alive header announces the timeout, so pooled clients such as undici close a little earlier themselves.
 */
export function keepConnectionsAlive(server: Server, timeoutMs: number): void {
  server.keepAliveTimeout = timeoutMs;
}
