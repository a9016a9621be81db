import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { AscendingPageParams, Page } from '../../../shared/pagination/page';
import type { FixtureResponse } from '../dto/fixture.response.dto';

export class ListFixturesQuery extends Query<Page<FixtureResponse>> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: AscendingPageParams,
  ) {
    super();
  }
}
