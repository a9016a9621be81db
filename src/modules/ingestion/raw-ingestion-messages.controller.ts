import { Controller, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { RawMessageDetailResponse, RawMessagePage } from './dto/raw-message.response.dto';
import { GetRawMessageParams, ListRawMessagesParams } from './dto/raw-message.request.dto';
import { GetRawMessageQuery } from './get-raw-message/get-raw-message.query';
import { ListRawMessagesQuery } from './list-raw-messages/list-raw-messages.query';
import { ApiDocs } from '../../shared/http/route-docs';
import { RAW_INGESTION_MESSAGES_DOCS } from './raw-ingestion-messages.docs';
import { Route } from '../../shared/http/routes';

@ApiTags('ingestion')
@ApiBearerAuth()
@PlatformAdminOnly()
@ApiDocs(RAW_INGESTION_MESSAGES_DOCS)
@Controller('v1/raw-ingestion-messages')
export class RawIngestionMessagesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('get', '', { operationId: 'rawIngestionMessages_list', type: RawMessagePage, description: 'Newest first by `receivedAt`; no bodies.' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListRawMessagesParams): Promise<RawMessagePage> {
    return this.queryBus.execute(new ListRawMessagesQuery(principal.userId, params));
  }

  @Route('get', ':rawIngestionMessageId', {
    operationId: 'rawIngestionMessages_get',
    type: RawMessageDetailResponse,
    description: 'With the exact body; audited as `raw_ingestion_message.read`.',
    notFound: '`raw_ingestion_message`: no such message (or not at the hinted `receivedAt`).',
  })
  get(@UuidParam('rawIngestionMessageId') id: string, @Query() params: GetRawMessageParams): Promise<RawMessageDetailResponse> {
    return this.queryBus.execute(new GetRawMessageQuery(id, params));
  }
}
