import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { RawIngestionMessageEntity } from '../persistence/raw-ingestion-message.entity';
import { RawMessageResponse } from '../dto/raw-message.response.dto';
import { ListRawMessagesQuery } from './list-raw-messages.query';

const FILTER_COLUMNS = {
  tenantId: 'r.tenant_id',
  // A device's messages are those of its devEui (indexed; it never changes on a device) routed to it.
  deviceId: 'r.dev_eui = (SELECT d.dev_eui FROM devices d WHERE d.device_id = :deviceId) AND r.device_id',
  devEui: 'r.dev_eui',
  source: 'r.source',
  processingStatus: 'r.processing_status',
  credentialId: 'r.credential_id',
} as const;

/** Every stored uplink for platform admins, newest first by receipt, without bodies. */
@QueryHandler(ListRawMessagesQuery)
export class ListRawMessagesHandler implements IQueryHandler<ListRawMessagesQuery, NewestFirstPage<RawMessageResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ actorId, params }: ListRawMessagesQuery): Promise<NewestFirstPage<RawMessageResponse>> {
    const filters = {
      tenantId: params.tenantId?.toLowerCase() ?? null,
      deviceId: params.deviceId?.toLowerCase() ?? null,
      devEui: params.devEui?.toUpperCase() ?? null,
      source: params.source ?? null,
      processingStatus: params.processingStatus ?? null,
      credentialId: params.credentialId?.toLowerCase() ?? null,
    };
    const request: WindowedPageRequest = {
      actorId,
      scope: 'raw-ingestion-messages',
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
    };
    this.paginator.verify(request);
    if (filters.tenantId) {
      const [tenant] = await this.dataSource.query<unknown[]>(`SELECT 1 FROM tenants WHERE tenant_id = $1`, [filters.tenantId]);
      if (!tenant) throw ValidationFailedError.single('query.tenantId', 'reference_not_found', 'No tenant has this id.');
    }
    if (filters.credentialId) {
      const [credential] = await this.dataSource.query<unknown[]>(
        `SELECT 1 FROM ingestion_credentials WHERE ingestion_credential_id = $1`,
        [filters.credentialId],
      );
      if (!credential) throw ValidationFailedError.single('query.credentialId', 'reference_not_found', 'No ingestion credential has this id.');
    }
    const query = this.dataSource.getRepository(RawIngestionMessageEntity).createQueryBuilder('r');
    for (const name of Object.keys(FILTER_COLUMNS) as (keyof typeof FILTER_COLUMNS)[]) {
      const value = filters[name];
      if (value !== null) query.andWhere(`${FILTER_COLUMNS[name]} = :${name}`, { [name]: value });
    }
    const page = await this.paginator.timeWindowed(query, { time: 'r.received_at', id: 'r.raw_ingestion_message_id' }, request);
    return { ...page, items: page.items.map((row) => RawMessageResponse.of(row)) };
  }
}
