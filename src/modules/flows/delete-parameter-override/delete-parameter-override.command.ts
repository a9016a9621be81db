import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OverrideTarget } from '../persistence/parameter-override.repository';

export class DeleteParameterOverrideCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly target: OverrideTarget,
    readonly key: string,
  ) {
    super();
  }
}
