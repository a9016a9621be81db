import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FixtureRunResponse } from '../dto/fixture-run.response.dto';
import type { RunFixturesRequest } from '../dto/run-fixtures.request.dto';

/** Not a state change: runs fixtures and stores nothing. */
export class RunFixturesQuery extends Query<FixtureRunResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly body: RunFixturesRequest,
  ) {
    super();
  }
}
