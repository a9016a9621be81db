import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FixtureResponse } from '../dto/fixture.response.dto';
import type { FixtureRequest } from '../dto/fixture.request.dto';

export class CreateFixtureCommand extends Command<FixtureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly body: FixtureRequest,
  ) {
    super();
  }
}
