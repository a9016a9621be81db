import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';

export class DeleteFixtureCommand extends Command<void> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly fixtureId: string,
    readonly expectedLockVersion: number,
  ) {
    super();
  }
}
