import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../errors/error-codes';
import { CORRELATION_HEADER } from '../context/correlation-id';

/*
 * Requests Node's HTTP parser refuses never reach Express: headers over Node's `maxHeaderSize` (16 KiB by
 * default) and malformed request lines or headers. Node's own answer is a bare status line; this one is the
 * error envelope every other failure gets, with `Cache-Control: no-store`.
 */

function envelope(status: number, reason: string, path: string, rule: string, message: string): string {
  const correlationId = randomUUID();
  const { category } = ERROR_CODES.VALIDATION_FAILED;
  const body = JSON.stringify({
    error: { code: 'VALIDATION_FAILED', category, message, correlationId, details: { fields: [{ path, rule, message }] } },
  });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    `${CORRELATION_HEADER}: ${correlationId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? envelope(431, 'Request Header Fields Too Large', 'headers', 'max_length', 'The request headers exceed 16 KiB.')
        : envelope(400, 'Bad Request', 'request', 'format', 'The request is not valid HTTP.');
    socket.end(answer);
  });
}
