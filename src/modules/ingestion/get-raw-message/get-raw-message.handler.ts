import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { RawIngestionMessageEntity } from '../persistence/raw-ingestion-message.entity';
import { withStoredMapping } from '../persistence/stored-mapping';
import { bodyOf, RawMessageDetailResponse, RawMessageResponse } from '../dto/raw-message.response.dto';
import { GetRawMessageQuery } from './get-raw-message.query';
import { utcDateTimeOf } from '../../../shared/validation/time-window';

/** One stored uplink with its exact body; every read is audited (`raw_ingestion_message.read`). */
@QueryHandler(GetRawMessageQuery)
export class GetRawMessageHandler implements IQueryHandler<GetRawMessageQuery, RawMessageDetailResponse> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ id, params }: GetRawMessageQuery): Promise<RawMessageDetailResponse> {
    return this.unitOfWork.run(async (tx) => {
      const query = tx.manager
        .getRepository(RawIngestionMessageEntity)
        .createQueryBuilder('r')
        .addSelect('r.body')
        .where('r.raw_ingestion_message_id = :id', { id });
      if (params.receivedAt) query.andWhere('r.received_at = CAST(:receivedAt AS timestamptz)', { receivedAt: utcDateTimeOf(params.receivedAt) });
      const row = await query.getOne();
      if (!row) throw new ResourceNotFoundError('raw_ingestion_message');
      await tx.audit({
        eventType: 'raw_ingestion_message.read',
        action: 'read',
        entityType: 'raw_ingestion_message',
        entityId: id,
        tenantId: row.tenantId,
        metadata: { source: row.source, sizeBytes: row.sizeBytes },
      });
      const mapping = withStoredMapping({
        source: row.source,
        raw_payload: row.rawPayload,
        connection_data: row.connectionData,
        // As storedMappingColumns selects it: the body of a mapped message (one with a devEui).
        mapped_body: row.devEui !== null ? row.body : null,
      });
      return {
        ...RawMessageResponse.of(row),
        body: bodyOf(row.contentType, row.body),
        rawPayload: mapping.raw_payload,
        connectionData: mapping.connection_data,
      };
    });
  }
}
