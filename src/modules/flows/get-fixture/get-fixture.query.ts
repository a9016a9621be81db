import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FixtureResponse } from '../dto/fixture.response.dto';

export class GetFixtureQuery extends Query<FixtureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly fixtureId: string,
  ) {
    super();
  }
}
