import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OverrideTarget } from '../persistence/parameter-override.repository';
import type { ParameterOverrideResponse } from '../dto/parameter-override.response.dto';

export class SetParameterOverrideCommand extends Command<ParameterOverrideResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly target: OverrideTarget,
    readonly key: string,
    readonly body: { value?: unknown },
  ) {
    super();
  }
}
