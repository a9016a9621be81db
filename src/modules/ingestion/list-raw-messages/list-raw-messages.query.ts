import { Query } from '@nestjs/cqrs';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { RawMessageResponse } from '../dto/raw-message.response.dto';
import { ListRawMessagesParams } from '../dto/raw-message.request.dto';

export class ListRawMessagesQuery extends Query<NewestFirstPage<RawMessageResponse>> {
  constructor(
    readonly actorId: string,
    readonly params: ListRawMessagesParams,
  ) {
    super();
  }
}
