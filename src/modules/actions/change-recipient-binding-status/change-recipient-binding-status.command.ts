import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DisableAction } from '../../../shared/state/status-transitions';
import type { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';

/** `disable` (active -> disabled) or `reactivate` (disabled -> active). */
export class ChangeRecipientBindingStatusCommand extends Command<RecipientBindingResponse> {
  constructor(
    readonly caller: Caller,
    readonly recipientBindingId: string,
    readonly action: DisableAction,
  ) {
    super();
  }
}
