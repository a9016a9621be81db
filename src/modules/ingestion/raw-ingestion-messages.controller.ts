import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { RawMessageDetailResponse, RawMessagePage } from './dto/raw-message.response.dto';
import { GetRawMessageParams, ListRawMessagesParams } from './dto/raw-message.request.dto';
import { GetRawMessageQuery } from './get-raw-message/get-raw-message.query';
import { ListRawMessagesQuery } from './list-raw-messages/list-raw-messages.query';

@ApiTags('ingestion')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/raw-ingestion-messages')
export class RawIngestionMessagesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @OperationId('ListRawIngestionMessagesController_list')
  @ApiOkResponse({ type: RawMessagePage, description: 'Newest first by `receivedAt`; no bodies.' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListRawMessagesParams): Promise<RawMessagePage> {
    return this.queryBus.execute(new ListRawMessagesQuery(principal.userId, params));
  }

  @Get(':rawIngestionMessageId')
  @OperationId('GetRawIngestionMessageController_get')
  @ApiOkResponse({ type: RawMessageDetailResponse, description: 'With the exact body; audited as `raw_ingestion_message.read`.' })
  @ApiNotFoundResponse({ description: '`raw_ingestion_message`: no such message (or not at the hinted `receivedAt`).' })
  get(@UuidParam('rawIngestionMessageId') id: string, @Query() params: GetRawMessageParams): Promise<RawMessageDetailResponse> {
    return this.queryBus.execute(new GetRawMessageQuery(id, params));
  }
}
