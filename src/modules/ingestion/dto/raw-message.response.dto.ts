import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import { INGEST_SOURCES, IngestSource, PROCESSING_STATUSES, ProcessingStatus, RawIngestionMessageEntity } from '../persistence/raw-ingestion-message.entity';

/** A stored uplink without its body, as lists show it. */
export class RawMessageResponse {
  @ApiProperty({ format: 'uuid' })
  rawIngestionMessageId!: string;

  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;

  @ApiProperty({ enum: INGEST_SOURCES })
  source!: IngestSource;

  @ApiProperty({ enum: ['up', 'uplink_message', 'uplink'] })
  event!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  credentialId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The credential\'s tenant; null for platform credentials.' })
  tenantId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Set once the message is routed.' })
  deviceId!: string | null;

  @ApiProperty({ pattern: '^[0-9A-F]{16}$', nullable: true, type: String })
  devEui!: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'An uplink’s network-server time (ChirpStack `time`, TTS `received_at`), else its `receivedAt`; null for a message no uplink was read from.',
  })
  observedAt!: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'What a repeat within 24 h is recognised by.' })
  dedupKey!: string | null;

  @ApiProperty({ enum: PROCESSING_STATUSES })
  processingStatus!: ProcessingStatus;

  @ApiProperty({ nullable: true, type: String })
  processingReason!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  flowExecutionId!: string | null;

  @ApiProperty({ description: 'Kept past retention while a flow fixture references it.' })
  pinned!: boolean;

  @ApiProperty({ type: 'integer', minimum: 0 })
  sizeBytes!: number;

  static of(row: RawIngestionMessageEntity): RawMessageResponse {
    return {
      rawIngestionMessageId: row.rawIngestionMessageId,
      receivedAt: row.receivedAt.toISOString(),
      source: row.source,
      event: row.event,
      credentialId: row.credentialId,
      tenantId: row.tenantId,
      deviceId: row.deviceId,
      devEui: row.devEui,
      // As a flow run sees it: the network server's time, else the receipt time (a read uplink always has its devEui).
      observedAt: (row.observedAt ?? (row.devEui !== null ? row.receivedAt : null))?.toISOString() ?? null,
      dedupKey: row.dedupKey,
      processingStatus: row.processingStatus,
      processingReason: row.processingReason,
      flowExecutionId: row.flowExecutionId,
      pinned: row.pinned,
      sizeBytes: row.sizeBytes,
    };
  }
}

export class RawMessageBody {
  @ApiProperty()
  contentType!: string;

  @ApiProperty({ enum: ['utf8', 'base64'], description: '`utf8` when the bytes are valid UTF-8, else `base64`.' })
  encoding!: 'utf8' | 'base64';

  @ApiProperty({ description: 'The exact request body.' })
  data!: string;
}

export class RawPayloadResponse {
  @ApiProperty({ enum: ['base64', 'hex', 'utf8', 'json'] })
  encoding!: string;

  @ApiProperty()
  data!: string;
}

/** One stored uplink with its exact body. */
export class RawMessageDetailResponse extends RawMessageResponse {
  @ApiProperty({ type: RawMessageBody })
  body!: RawMessageBody;

  @ApiPropertyOptional({ type: RawPayloadResponse, nullable: true, description: 'Null when the body could not be mapped.' })
  rawPayload!: RawPayloadResponse | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  connectionData!: Record<string, unknown> | null;
}

export class RawMessagePage extends NewestFirstPageResponse(RawMessageResponse) {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text when it is UTF-8, else base64: either way the exact bytes. */
export function bodyOf(contentType: string, bytes: Buffer): RawMessageBody {
  try {
    return { contentType, encoding: 'utf8', data: utf8.decode(bytes) };
  } catch {
    return { contentType, encoding: 'base64', data: bytes.toString('base64') };
  }
}
