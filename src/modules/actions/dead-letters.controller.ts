import { Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, TenantList, WriteById } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { DeadLetterDetailResponse, DeadLetterPage, DeadLetterResponse } from './dto/dead-letter.response.dto';
import { ListDeadLettersParams } from './dto/dead-letter.request.dto';
import { DEAD_LETTERS_DOCS } from './email-deliveries.docs';
import { GetDeadLetterQuery } from './get-dead-letter/get-dead-letter.query';
import { ListDeadLettersQuery } from './list-dead-letters/list-dead-letters.query';
import { RedriveDeadLetterCommand } from './redrive-dead-letter/redrive-dead-letter.command';

@ApiTags('flow actions')
@ApiBearerAuth()
@ApiDocs(DEAD_LETTERS_DOCS)
@Controller('v1')
export class DeadLettersController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/dead-letters', {
    operationId: 'tenantDeadLetters_list',
    permission: 'actions:read',
    type: DeadLetterPage,
    description: 'Newest first by (createdAt, deadLetterId); no bodies.',
    forbidden: '`missing_permission`: needs `actions:read` through a tenant-level grant.',
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListDeadLettersParams): Promise<DeadLetterPage> {
    return this.queryBus.execute(new ListDeadLettersQuery(caller, tenantNumber, params));
  }

  @ReadById('dead-letters/:deadLetterId', {
    operationId: 'deadLetters_get',
    permission: 'actions:read',
    type: DeadLetterDetailResponse,
    forbidden: '`missing_permission`: needs `actions:read` in the dead letter\'s tenant.',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('deadLetterId') id: string): Promise<DeadLetterDetailResponse> {
    return this.queryBus.execute(new GetDeadLetterQuery(caller, id));
  }

  @WriteById('post', 'dead-letters/:deadLetterId/redrive', {
    operationId: 'deadLetters_redrive',
    permission: 'actions:control',
    status: 202,
    type: DeadLetterResponse,
    description: '`redrive_pending`; one attempt follows.',
    forbidden: '`missing_permission`: needs `actions:control` in the dead letter\'s tenant.',
    conflict: '`invalid_state` (+`currentStatus`): not `open`; `actions_paused`: the tenant\'s e-mail is paused.',
  })
  redrive(@CurrentCaller() caller: Caller, @UuidParam('deadLetterId') id: string): Promise<DeadLetterResponse> {
    return this.commandBus.execute(new RedriveDeadLetterCommand(caller, id));
  }
}
