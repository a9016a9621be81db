import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { DomainError, ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { parseJsonBody } from '../../../shared/http/json-body.middleware';
import type { IngestSource } from '../persistence/raw-ingestion-message.entity';
import { dedupScope } from './deduplication';
import { INGESTION_MESSAGES_TOTAL } from './ingestion-metrics';
import { RawMessageInput, RawMessageWriter, StoredAck } from './raw-message-writer';
import { MappedUplink, MapResult } from './uplink-mapping';

/** The largest message stored, from any source (256 KiB). */
export const INGEST_BODY_LIMIT = 256 * 1024;

/** One message as a source received it: its exact bytes and who delivered it. */
export interface IntakeMessage {
  source: IngestSource;
  /** The stored `event`: `up` (ChirpStack webhook), `uplink_message` (TTS webhook), `uplink` (HTTP, MQTT). */
  event: string;
  /** Null for MQTT, which has no ingestion credential. */
  credentialId: string | null;
  /** The credential's tenant; null for platform credentials and MQTT. */
  tenantId: string | null;
  correlationId: string;
  contentType: string;
  body: Buffer;
  map: (parsed: unknown) => MapResult;
}

export type IntakeOutcome =
  | { kind: 'ignored' }
  | { kind: 'stored'; ack: StoredAck }
  /** Stored as `rejected`/`malformed_payload`. */
  | { kind: 'rejected'; violations: FieldViolation[] };

/**
 * The one path from received bytes to a committed raw row, shared by the webhooks and MQTT: parse (UTF-8, JSON,
 * the input rules), map, store through the group-committed writer, count the outcome. It resolves only once the
 * row is committed, so a caller acknowledges afterwards; it rejects (DependencyFailureError) when the row could
 * not be stored, and the caller must then not acknowledge.
 */
@Injectable()
export class UplinkIntake {
  constructor(
    private readonly writer: RawMessageWriter,
    @InjectMetric(INGESTION_MESSAGES_TOTAL) private readonly messages: Counter<string>,
  ) {}

  /** A message that is not an uplink (another event type): counted, not stored. */
  ignored(source: IngestSource): IntakeOutcome {
    this.messages.inc({ source, status: 'ignored' });
    return { kind: 'ignored' };
  }

  async take(message: IntakeMessage): Promise<IntakeOutcome> {
    const receivedAt = new Date();
    const { source } = message;
    const parsed = parseJsonBody(message.body);
    const result: MapResult =
      parsed instanceof DomainError
        ? { kind: 'malformed', violations: parsed instanceof ValidationFailedError ? parsed.fields : [{ path: 'body', rule: 'json', message: parsed.message }] }
        : message.map(parsed.value);
    if (result.kind === 'ignored') return this.ignored(source);
    try {
      if (result.kind === 'malformed') {
        await this.writer.store(rawMessageInput(message, receivedAt, null, 'rejected'));
        this.messages.inc({ source, status: 'rejected' });
        return { kind: 'rejected', violations: result.violations };
      }
      const ack = await this.writer.store(rawMessageInput(message, receivedAt, result.uplink, 'pending'));
      this.messages.inc({ source, status: ack.duplicate ? 'duplicate' : 'accepted' });
      return { kind: 'stored', ack };
    } catch (error) {
      this.messages.inc({ source, status: 'failed' });
      throw error;
    }
  }
}

/** The row to store for a message: its mapping (null when it could not be mapped) and the status it starts in. */
function rawMessageInput(message: IntakeMessage, receivedAt: Date, uplink: MappedUplink | null, status: RawMessageInput['status']): RawMessageInput {
  return {
    source: message.source,
    event: message.event,
    credentialId: message.credentialId,
    tenantId: message.tenantId,
    dedupScope: dedupScope(message.tenantId),
    dedupKey: uplink?.dedupKey ?? null,
    devEui: uplink?.devEui ?? null,
    observedAt: uplink?.observedAt ?? null,
    rawPayload: uplink?.rawPayload ?? null,
    connectionData: uplink?.connectionData ?? null,
    correlationId: message.correlationId.slice(0, 128),
    contentType: message.contentType.slice(0, 200),
    body: message.body,
    receivedAt,
    status,
  };
}
