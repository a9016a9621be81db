import { Controller, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, TenantList } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { EmailDeliveryDetailResponse, EmailDeliveryPage } from './dto/email-delivery.response.dto';
import { ListEmailDeliveriesParams } from './dto/email-delivery.request.dto';
import { EMAIL_DELIVERIES_DOCS } from './email-deliveries.docs';
import { DELIVERY_PARAMETER_EXAMPLES, DELIVERY_SCHEMA_EXAMPLES } from './email-delivery.examples';
import { GetEmailDeliveryQuery } from './get-email-delivery/get-email-delivery.query';
import { ListEmailDeliveriesQuery } from './list-email-deliveries/list-email-deliveries.query';

@ApiTags('flow actions')
@ApiBearerAuth()
@ApiDocs(EMAIL_DELIVERIES_DOCS, { schemas: DELIVERY_SCHEMA_EXAMPLES, parameters: DELIVERY_PARAMETER_EXAMPLES })
@Controller('v1')
export class EmailDeliveriesController {
  constructor(private readonly queryBus: QueryBus) {}

  @TenantList('tenants/:tenantNumber/email-deliveries', {
    operationId: 'tenantEmailDeliveries_list',
    permission: 'actions:read',
    type: EmailDeliveryPage,
    description: 'Newest first by (createdAt, emailDeliveryId); no bodies.',
    forbidden: '`missing_permission`: needs `actions:read` through a tenant-level grant.',
  })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListEmailDeliveriesParams,
  ): Promise<EmailDeliveryPage> {
    return this.queryBus.execute(new ListEmailDeliveriesQuery(caller, tenantNumber, params));
  }

  @ReadById('email-deliveries/:emailDeliveryId', {
    operationId: 'emailDeliveries_get',
    permission: 'actions:read',
    type: EmailDeliveryDetailResponse,
    forbidden: '`missing_permission`: needs `actions:read` in the delivery\'s tenant.',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('emailDeliveryId') id: string): Promise<EmailDeliveryDetailResponse> {
    return this.queryBus.execute(new GetEmailDeliveryQuery(caller, id));
  }
}
