import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { KillSwitchResponse } from '../dto/kill-switch.dto';

export class ChangeKillSwitchCommand extends Command<KillSwitchResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly action: 'pause' | 'resume',
    readonly reason: string | null,
  ) {
    super();
  }
}
