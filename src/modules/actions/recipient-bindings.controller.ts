import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { ACTIONS_PARAMETER_EXAMPLES, ACTIONS_SCHEMA_EXAMPLES } from './actions.examples';
import { ReadById, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';
import type { DisableAction } from '../../shared/state/status-transitions';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ChangeRecipientBindingStatusCommand } from './change-recipient-binding-status/change-recipient-binding-status.command';
import { CreateRecipientBindingCommand } from './create-recipient-binding/create-recipient-binding.command';
import { CreateRecipientBindingRequest, ListRecipientBindingsParams, UpdateRecipientBindingRequest } from './dto/recipient-binding.request.dto';
import { RecipientBindingPage, RecipientBindingResponse } from './dto/recipient-binding.response.dto';
import { GetRecipientBindingQuery } from './get-recipient-binding/get-recipient-binding.query';
import { ListRecipientBindingsQuery } from './list-recipient-bindings/list-recipient-bindings.query';
import { RECIPIENT_BINDINGS_DOCS } from './recipient-bindings.docs';
import { UpdateRecipientBindingCommand } from './update-recipient-binding/update-recipient-binding.command';

const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `recipient_binding`).';

/** Who a template's e-mail goes to. */
@ApiTags('email-templates')
@ApiBearerAuth()
@ApiDocs(RECIPIENT_BINDINGS_DOCS, { schemas: ACTIONS_SCHEMA_EXAMPLES, parameters: ACTIONS_PARAMETER_EXAMPLES })
@Controller('v1')
export class RecipientBindingsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/recipient-bindings', {
    operationId: 'recipientBindings_list',
    permission: 'actions:read',
    type: RecipientBindingPage,
    description: 'Ascending by (createdAt, recipientBindingId); disabled bindings included unless filtered.',
    badRequest: 'Query rules; `reference_not_found` for a filter id naming nothing in the tenant.',
    forbidden: FORBIDDEN,
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListRecipientBindingsParams): Promise<RecipientBindingPage> {
    return this.queryBus.execute(new ListRecipientBindingsQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/recipient-bindings', {
    operationId: 'recipientBindings_create',
    permission: 'actions:write',
    type: RecipientBindingResponse,
    description: '`Location: /v1/recipient-bindings/{recipientBindingId}`; `active`.',
    location: '/v1/recipient-bindings/{recipientBindingId}',
    badRequest: 'Body rules; `reference_not_found` for a template, device type or unit not of this tenant, or a user without a grant in it.',
    forbidden: FORBIDDEN,
    conflict: '`duplicate_binding`; `max_bindings` (500 active per template).',
  })
  create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateRecipientBindingRequest,
  ): Promise<RecipientBindingResponse> {
    return this.commandBus.execute(new CreateRecipientBindingCommand(caller, tenantNumber, body));
  }

  @ReadById('recipient-bindings/:bindingId', {
    operationId: 'recipientBindings_get',
    permission: 'actions:read',
    type: RecipientBindingResponse,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('bindingId') bindingId: string): Promise<RecipientBindingResponse> {
    return this.queryBus.execute(new GetRecipientBindingQuery(caller, bindingId));
  }

  @WriteById('patch', 'recipient-bindings/:bindingId', {
    operationId: 'recipientBindings_update',
    permission: 'actions:write',
    type: RecipientBindingResponse,
    description: 'The binding with its new device type, unit or `includeDescendants`.',
    badRequest: 'Body rules; `reference_not_found` for a device type or unit not of this tenant.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`duplicate_binding`: an equal binding is active.',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('bindingId') bindingId: string,
    @Body() body: UpdateRecipientBindingRequest,
  ): Promise<RecipientBindingResponse> {
    return this.commandBus.execute(new UpdateRecipientBindingCommand(caller, bindingId, { ...body }));
  }

  @WriteById('post', 'recipient-bindings/:bindingId/disable', {
    operationId: 'recipientBindings_disable',
    permission: 'actions:write',
    type: RecipientBindingResponse,
    description: '`disabled`: still listed, ignored at send.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): already disabled.',
  })
  disable(@CurrentCaller() caller: Caller, @UuidParam('bindingId') bindingId: string): Promise<RecipientBindingResponse> {
    return this.change(caller, bindingId, 'disable');
  }

  @WriteById('post', 'recipient-bindings/:bindingId/reactivate', {
    operationId: 'recipientBindings_reactivate',
    permission: 'actions:write',
    type: RecipientBindingResponse,
    description: '`active` again.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): already active; `duplicate_binding`; `max_bindings`.',
  })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('bindingId') bindingId: string): Promise<RecipientBindingResponse> {
    return this.change(caller, bindingId, 'reactivate');
  }

  private change(caller: Caller, bindingId: string, action: DisableAction): Promise<RecipientBindingResponse> {
    return this.commandBus.execute(new ChangeRecipientBindingStatusCommand(caller, bindingId, action));
  }
}
