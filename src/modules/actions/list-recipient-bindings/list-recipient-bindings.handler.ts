import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList } from '../../../shared/pagination/tenant-list';
import { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';
import { RecipientBindingEntity } from '../persistence/recipient-binding.entity';
import { RecipientBindingRepository } from '../persistence/recipient-binding.repository';
import { ListRecipientBindingsQuery } from './list-recipient-bindings.query';

/**
 * The tenant's recipient bindings, "Ascending" family, filtered by `status`, `emailTemplateId`, `deviceTypeId` and
 * `organizationUnitId` (exact; an id naming nothing in the tenant is 400 `reference_not_found`).
 */
@QueryHandler(ListRecipientBindingsQuery)
export class ListRecipientBindingsHandler implements IQueryHandler<ListRecipientBindingsQuery, Page<RecipientBindingResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly bindings: RecipientBindingRepository,
  ) {}

  async execute({ caller, tenantNumber, params }: ListRecipientBindingsQuery): Promise<Page<RecipientBindingResponse>> {
    const filters = {
      status: params.status ?? null,
      emailTemplateId: params.emailTemplateId ?? null,
      deviceTypeId: params.deviceTypeId ?? null,
      organizationUnitId: params.organizationUnitId ?? null,
    };
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/recipient-bindings`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      references: (access) =>
        this.bindings.assertReferences(
          this.dataSource.manager,
          access.tenant.tenantId,
          { emailTemplateId: params.emailTemplateId, deviceTypeId: params.deviceTypeId, organizationUnitId: params.organizationUnitId },
          'query',
        ),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(RecipientBindingEntity)
          .createQueryBuilder('rb')
          .where('rb.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (filters.status) query.andWhere('rb.status = :status', { status: filters.status });
        if (filters.emailTemplateId) query.andWhere('rb.email_template_id = :emailTemplateId', { emailTemplateId: filters.emailTemplateId });
        if (filters.deviceTypeId) query.andWhere('rb.device_type_id = :deviceTypeId', { deviceTypeId: filters.deviceTypeId });
        if (filters.organizationUnitId) query.andWhere('rb.organization_unit_id = :organizationUnitId', { organizationUnitId: filters.organizationUnitId });
        const page = await this.paginator.ascending(query, { createdAt: 'rb.created_at', id: 'rb.recipient_binding_id' }, pageRequest);
        const emails = await this.bindings.userEmails(this.dataSource.manager, page.items);
        return { ...page, items: page.items.map((binding) => RecipientBindingResponse.of(binding, emails)) };
      },
    });
  }
}
