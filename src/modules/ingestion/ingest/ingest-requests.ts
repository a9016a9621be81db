import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import getRawBody from 'raw-body';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { IngestAckResponse } from '../dto/ingest-ack.response.dto';
import type { IngestSource } from '../persistence/raw-ingestion-message.entity';
import type { IngestionCaller } from './ingestion-token.guard';
import { INGEST_BODY_LIMIT, UplinkIntake } from './uplink-intake';
import { MapResult, mapChirpStackUp, mapHttpUplink, mapTtsMessage } from './uplink-mapping';

const JSON_CONTENT_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;
export const CHIRPSTACK_IGNORED = ['join', 'status', 'ack', 'txack', 'log', 'location', 'integration'];
const ENABLE_JSON =
  'ChirpStack posted a binary (Protobuf) body: set the HTTP integration\'s payload encoding to JSON (ChirpStack: Application → Integrations → HTTP → Payload encoding: JSON).';

/** What a webhook answers on success: 202 with the stored row, or 204 for a message that is not an uplink. */
export type IngestAnswer = { status: 202; ack: IngestAckResponse } | { status: 204 };

/**
 * The rules of the three webhooks, once, for both ways a request reaches them (the controller through Nest, and
 * the fast path in front of Express): the event and content-type checks, the exact body bytes (256 KiB, identity
 * encoding only), then the intake, which answers only once the row is committed. The caller is authenticated
 * already (IngestionAuthenticator). Failures are thrown as domain errors (the error envelope).
 */
@Injectable()
export class IngestRequests {
  constructor(private readonly intake: UplinkIntake) {}

  /** `event` is the request's `event` query value as parsed (a string, or anything else when absent or repeated). */
  async chirpstack(caller: IngestionCaller, event: unknown, req: IncomingMessage, correlationId: string): Promise<IngestAnswer> {
    if (typeof event !== 'string' || event === '') throw ValidationFailedError.single('query.event', 'required', 'The `event` query parameter is required (ChirpStack sets it).');
    if (CHIRPSTACK_IGNORED.includes(event)) {
      this.intake.ignored('chirpstack');
      return { status: 204 };
    }
    if (event !== 'up') throw ValidationFailedError.single('query.event', 'enum', `Unknown ChirpStack event "${event.slice(0, 50)}".`);
    const contentType = req.headers['content-type'] ?? '';
    const body = await readBody(req);
    const looksJson = JSON_CONTENT_TYPE.test(contentType) && /^\s*[[{]/.test(body.toString('latin1', 0, 64));
    if (!looksJson) throw ValidationFailedError.single('headers.content-type', 'content_type', ENABLE_JSON);
    return this.ingest('chirpstack', 'up', caller, contentType, body, mapChirpStackUp, correlationId);
  }

  async tts(caller: IngestionCaller, req: IncomingMessage, correlationId: string): Promise<IngestAnswer> {
    const { contentType, body } = await readJsonRequest(req);
    return this.ingest('tts', 'uplink_message', caller, contentType, body, mapTtsMessage, correlationId);
  }

  async http(caller: IngestionCaller, req: IncomingMessage, correlationId: string): Promise<IngestAnswer> {
    const { contentType, body } = await readJsonRequest(req);
    return this.ingest('http', 'uplink', caller, contentType, body, mapHttpUplink, correlationId);
  }

  private async ingest(
    source: IngestSource,
    event: string,
    caller: IngestionCaller,
    contentType: string,
    body: Buffer,
    map: (parsed: unknown) => MapResult,
    correlationId: string,
  ): Promise<IngestAnswer> {
    const outcome = await this.intake.take({ source, event, credentialId: caller.credentialId, tenantId: caller.tenantId, correlationId, contentType, body, map });
    if (outcome.kind === 'ignored') return { status: 204 };
    if (outcome.kind === 'rejected') {
      throw new ValidationFailedError(
        outcome.violations.length > 0 ? outcome.violations : [{ path: 'body', rule: 'json', message: 'The uplink could not be mapped.' }],
      );
    }
    return { status: 202, ack: outcome.ack };
  }
}

/** The exact request bytes, up to 256 KiB; only identity encoding (the stored bytes are what was sent). */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') {
    throw ValidationFailedError.single('headers.content-encoding', 'content_type', 'Ingestion bodies are sent without Content-Encoding.');
  }
  try {
    return await getRawBody(req, { limit: INGEST_BODY_LIMIT });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw ValidationFailedError.single('body', 'body_too_large', 'An ingestion body is at most 256 KiB.');
    }
    throw ValidationFailedError.single('body', 'json', 'The request body could not be read.');
  }
}

async function readJsonRequest(req: IncomingMessage): Promise<{ contentType: string; body: Buffer }> {
  const contentType = req.headers['content-type'] ?? '';
  if (!JSON_CONTENT_TYPE.test(contentType)) {
    throw ValidationFailedError.single('headers.content-type', 'content_type', 'The request body must be application/json.');
  }
  return { contentType, body: await readBody(req) };
}
