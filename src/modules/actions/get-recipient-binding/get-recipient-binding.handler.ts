import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';
import { RecipientBindingRepository } from '../persistence/recipient-binding.repository';
import { GetRecipientBindingQuery } from './get-recipient-binding.query';

/** One binding, with a user's current address. */
@QueryHandler(GetRecipientBindingQuery)
export class GetRecipientBindingHandler implements IQueryHandler<GetRecipientBindingQuery, RecipientBindingResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bindings: RecipientBindingRepository,
  ) {}

  async execute({ caller, recipientBindingId }: GetRecipientBindingQuery): Promise<RecipientBindingResponse> {
    const { access, binding } = await this.bindings.resolve(caller.principal, recipientBindingId);
    access.require(caller.permission);
    return RecipientBindingResponse.of(binding, await this.bindings.userEmails(this.dataSource.manager, [binding]));
  }
}
