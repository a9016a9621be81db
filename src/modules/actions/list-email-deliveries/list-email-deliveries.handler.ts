import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { runTenantList } from '../../../shared/pagination/tenant-list';
import { EmailDeliveryResponse } from '../dto/email-delivery.response.dto';
import { EmailDeliveryEntity } from '../persistence/email-delivery.entity';
import { ListEmailDeliveriesQuery } from './list-email-deliveries.query';

const FILTER_COLUMNS = {
  status: 'd.status',
  emailTemplateId: 'd.email_template_id',
  deviceId: 'd.device_id',
  flowExecutionId: 'd.flow_execution_id',
  recipient: 'd.recipient_email',
} as const;

/** The tenant's delivery log, newest first by creation, no bodies; no window given means no lower bound. */
@QueryHandler(ListEmailDeliveriesQuery)
export class ListEmailDeliveriesHandler implements IQueryHandler<ListEmailDeliveriesQuery, NewestFirstPage<EmailDeliveryResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListEmailDeliveriesQuery): Promise<NewestFirstPage<EmailDeliveryResponse>> {
    const filters = {
      status: params.status ?? null,
      emailTemplateId: params.emailTemplateId?.toLowerCase() ?? null,
      deviceId: params.deviceId?.toLowerCase() ?? null,
      flowExecutionId: params.flowExecutionId?.toLowerCase() ?? null,
      recipient: params.recipient?.toLowerCase() ?? null,
    };
    const request: WindowedPageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/email-deliveries`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
      defaultHours: null,
    };
    return runTenantList({
      validate: () => this.paginator.verify(request),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(EmailDeliveryEntity)
          .createQueryBuilder('d')
          .where('d.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        for (const name of Object.keys(FILTER_COLUMNS) as (keyof typeof FILTER_COLUMNS)[]) {
          const value = filters[name];
          if (value !== null) query.andWhere(`${FILTER_COLUMNS[name]} = :${name}`, { [name]: value });
        }
        const page = await this.paginator.timeWindowed(query, { time: 'd.created_at', id: 'd.email_delivery_id' }, request);
        return { ...page, items: page.items.map((row) => EmailDeliveryResponse.of(row)) };
      },
    });
  }
}
