import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { CreateRecipientBindingRequest } from '../dto/recipient-binding.request.dto';
import type { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';

export class CreateRecipientBindingCommand extends Command<RecipientBindingResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateRecipientBindingRequest,
  ) {
    super();
  }
}
