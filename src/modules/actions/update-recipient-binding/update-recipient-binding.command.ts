import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { UpdateRecipientBindingRequest } from '../dto/recipient-binding.request.dto';
import type { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';

export class UpdateRecipientBindingCommand extends Command<RecipientBindingResponse> {
  constructor(
    readonly caller: Caller,
    readonly recipientBindingId: string,
    readonly changes: UpdateRecipientBindingRequest,
  ) {
    super();
  }
}
