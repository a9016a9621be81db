import { Query } from '@nestjs/cqrs';
import type { RawMessageDetailResponse } from '../dto/raw-message.response.dto';
import { GetRawMessageParams } from '../dto/raw-message.request.dto';

export class GetRawMessageQuery extends Query<RawMessageDetailResponse> {
  constructor(
    readonly id: string,
    readonly params: GetRawMessageParams,
  ) {
    super();
  }
}
