import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { TestSendRequest, TestSendResponse } from '../dto/test-send.dto';

export class TestSendEmailCommand extends Command<TestSendResponse> {
  constructor(
    readonly caller: Caller,
    readonly templateId: string,
    readonly versionId: string,
    readonly body: TestSendRequest,
  ) {
    super();
  }
}
