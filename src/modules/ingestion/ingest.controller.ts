import { Controller, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiNoContentResponse, ApiQuery, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../shared/auth/public.decorator';
import { SkipRateLimit } from '../../shared/auth/rate-limit.guard';
import { correlationIdOf } from '../../shared/context/correlation-id';
import { IngestAckResponse } from './dto/ingest-ack.response.dto';
import { CHIRPSTACK_IGNORED, IngestAnswer, IngestRequests } from './ingest/ingest-requests';
import { ingestionCallerOf, IngestionTokenGuard } from './ingest/ingestion-token.guard';
import { ApiDocs } from '../../shared/http/route-docs';
import { Route } from '../../shared/http/routes';
import { CHIRPSTACK_UP_EXAMPLE, HTTP_UPLINK_EXAMPLE, INGEST_DOCS, TTS_UPLINK_EXAMPLE } from './ingest.docs';

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
/**
 * Network servers' webhooks. Each request is authenticated by its ingestion token before the body is read,
 * its exact bytes are stored, and the 202 is sent only once that row is committed (group commit). Nothing is
 * routed here: devices are not looked up, so every authenticated, parseable uplink gets the same answer. The
 * rules are IngestRequests'; the usual requests are answered by IngestFastPath before Express (same rules), and
 * this controller answers the rest and documents the routes.
 */
@ApiTags('ingestion')
@ApiBearerAuth('ingestion-token')
@Public()
@SkipRateLimit()
@UseGuards(IngestionTokenGuard)
@ApiDocs(INGEST_DOCS)
@Controller('v1/ingestion')
export class IngestController {
  constructor(private readonly requests: IngestRequests) {}

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
    return answer(res, await this.requests.chirpstack(ingestionCallerOf(req), req.query.event, req, correlationIdOf(req)));
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
    return answer(res, await this.requests.tts(ingestionCallerOf(req), req, correlationIdOf(req)));
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
    return answer(res, await this.requests.http(ingestionCallerOf(req), req, correlationIdOf(req)));
  }
}

/** 202 (the route's status) with the stored row, or 204 without a body. */
function answer(res: Response, result: IngestAnswer): IngestAckResponse | undefined {
  if (result.status === 202) return result.ack;
  res.status(204);
  return undefined;
}
