import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { KillSwitchResponse } from '../dto/kill-switch.dto';

export class GetKillSwitchQuery extends Query<KillSwitchResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
  ) {
    super();
  }
}
