import { Controller, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiQuery, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import getRawBody from 'raw-body';
import { Public } from '../../shared/auth/public.decorator';
import { SkipRateLimit } from '../../shared/auth/rate-limit.guard';
import { correlationIdOf } from '../../shared/context/correlation-id';
import { ValidationFailedError } from '../../shared/errors/domain-error';
import { IngestAckResponse } from './dto/ingest-ack.response.dto';
import type { IngestSource } from './persistence/raw-ingestion-message.entity';
import { IngestionCaller, ingestionCallerOf, IngestionTokenGuard } from './ingest/ingestion-token.guard';
import { INGEST_BODY_LIMIT, UplinkIntake } from './ingest/uplink-intake';
import { MapResult, mapChirpStackUp, mapHttpUplink, mapTtsMessage } from './ingest/uplink-mapping';
import { ApiDocs } from '../../shared/http/route-docs';
import { Route } from '../../shared/http/routes';
import { CHIRPSTACK_UP_EXAMPLE, HTTP_UPLINK_EXAMPLE, INGEST_DOCS, TTS_UPLINK_EXAMPLE } from './ingest.docs';

const JSON_CONTENT_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;
const CHIRPSTACK_IGNORED = ['join', 'status', 'ack', 'txack', 'log', 'location', 'integration'];
const ENABLE_JSON =
  'ChirpStack posted a binary (Protobuf) body: set the HTTP integration\'s payload encoding to JSON (ChirpStack: Application → Integrations → HTTP → Payload encoding: JSON).';

const INVALID_TOKEN = ApiUnauthorizedResponse({ description: '`invalid_token`: unknown or revoked ingestion token.' });

const HTTP_UPLINK_BODY = ApiBody({
  schema: {
    type: 'object',
    required: ['devEui', 'payload'],
    additionalProperties: false,
    example: HTTP_UPLINK_EXAMPLE,
    properties: {
      devEui: { type: 'string', pattern: '^[0-9A-Fa-f]{16}$' },
      payload: {
        type: 'object',
        required: ['encoding', 'data'],
        additionalProperties: false,
        properties: { encoding: { type: 'string', enum: ['base64', 'hex', 'utf8', 'json'] }, data: { type: 'string', maxLength: 65536 } },
      },
      observedAt: { type: 'string', format: 'date-time' },
      connectionData: { type: 'object', additionalProperties: true, description: 'At most 16 KiB as JSON.' },
      messageId: { type: 'string', minLength: 1, maxLength: 128, description: 'Repeats within 24 h are answered with the original.' },
    },
  },
});

/**
 * Network servers' webhooks. Each request is authenticated by its ingestion token before the body is read,
 * its exact bytes are stored, and the 202 is sent only once that row is committed (group commit). Nothing is
 * routed here: devices are not looked up, so every authenticated, parseable uplink gets the same answer.
 */
@ApiTags('ingestion')
@ApiBearerAuth('ingestion-token')
@Public()
@SkipRateLimit()
@UseGuards(IngestionTokenGuard)
@ApiDocs(INGEST_DOCS)
@Controller('v1/ingestion')
export class IngestController {
  constructor(private readonly intake: UplinkIntake) {}

  @Route('post', 'chirpstack', {
    operationId: 'ingestion_chirpStack',
    status: 202,
    type: IngestAckResponse,
    description: '`event=up`: stored and committed.',
    badRequest: 'Missing or unknown `event`; a Protobuf body (enable JSON); a malformed uplink (stored as rejected).',
    extra: [
      ApiQuery({ name: 'event', required: true, enum: ['up', ...CHIRPSTACK_IGNORED] }),
      ApiBody({ schema: { type: 'object', additionalProperties: true, example: CHIRPSTACK_UP_EXAMPLE }, description: 'A ChirpStack v4 HTTP integration event (JSON encoding).' }),
      ApiNoContentResponse({ description: 'join, status, ack, txack, log, location, integration: not stored.' }),
      INVALID_TOKEN,
    ],
  })
  async chirpstack(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<IngestAckResponse | undefined> {
    const caller = ingestionCallerOf(req);
    const event = req.query.event;
    if (typeof event !== 'string' || event === '') throw ValidationFailedError.single('query.event', 'required', 'The `event` query parameter is required (ChirpStack sets it).');
    if (CHIRPSTACK_IGNORED.includes(event)) return this.ignored('chirpstack', res);
    if (event !== 'up') throw ValidationFailedError.single('query.event', 'enum', `Unknown ChirpStack event "${event.slice(0, 50)}".`);
    const contentType = req.headers['content-type'] ?? '';
    const body = await readBody(req);
    const looksJson = JSON_CONTENT_TYPE.test(contentType) && /^\s*[[{]/.test(body.toString('latin1', 0, 64));
    if (!looksJson) throw ValidationFailedError.single('headers.content-type', 'content_type', ENABLE_JSON);
    return this.ingest('chirpstack', 'up', caller, contentType, body, mapChirpStackUp, req, res);
  }

  @Route('post', 'tts', {
    operationId: 'ingestion_tts',
    status: 202,
    type: IngestAckResponse,
    description: '`uplink_message`: stored and committed.',
    badRequest: 'Not JSON; a malformed uplink (stored as rejected).',
    extra: [
      ApiBody({ schema: { type: 'object', additionalProperties: true, example: TTS_UPLINK_EXAMPLE }, description: 'A The Things Stack v3 webhook message (JSON).' }),
      ApiNoContentResponse({ description: 'Any other message type: not stored.' }),
      INVALID_TOKEN,
    ],
  })
  async tts(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<IngestAckResponse | undefined> {
    const caller = ingestionCallerOf(req);
    const { contentType, body } = await readJsonRequest(req);
    return this.ingest('tts', 'uplink_message', caller, contentType, body, mapTtsMessage, req, res);
  }

  @Route('post', 'http', {
    operationId: 'ingestion_http',
    status: 202,
    type: IngestAckResponse,
    description: 'Stored and committed.',
    badRequest: 'Not JSON; a body that breaks the rules (stored as rejected).',
    extra: [
      HTTP_UPLINK_BODY,
      INVALID_TOKEN,
    ],
  })
  async http(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<IngestAckResponse | undefined> {
    const caller = ingestionCallerOf(req);
    const { contentType, body } = await readJsonRequest(req);
    return this.ingest('http', 'uplink', caller, contentType, body, mapHttpUplink, req, res);
  }

  private ignored(source: IngestSource, res: Response): undefined {
    this.intake.ignored(source);
    res.status(204);
    return undefined;
  }

  private async ingest(
    source: IngestSource,
    event: string,
    caller: IngestionCaller,
    contentType: string,
    body: Buffer,
    map: (parsed: unknown) => MapResult,
    req: Request,
    res: Response,
  ): Promise<IngestAckResponse | undefined> {
    const outcome = await this.intake.take({
      source,
      event,
      credentialId: caller.credentialId,
      tenantId: caller.tenantId,
      correlationId: correlationIdOf(req),
      contentType,
      body,
      map,
    });
    if (outcome.kind === 'ignored') {
      res.status(204);
      return undefined;
    }
    if (outcome.kind === 'rejected') {
      throw new ValidationFailedError(
        outcome.violations.length > 0 ? outcome.violations : [{ path: 'body', rule: 'json', message: 'The uplink could not be mapped.' }],
      );
    }
    return outcome.ack;
  }
}

/** The exact request bytes, up to 256 KiB; only identity encoding (the stored bytes are what was sent). */
async function readBody(req: Request): Promise<Buffer> {
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

async function readJsonRequest(req: Request): Promise<{ contentType: string; body: Buffer }> {
  const contentType = req.headers['content-type'] ?? '';
  if (!JSON_CONTENT_TYPE.test(contentType)) {
    throw ValidationFailedError.single('headers.content-type', 'content_type', 'The request body must be application/json.');
  }
  return { contentType, body: await readBody(req) };
}
