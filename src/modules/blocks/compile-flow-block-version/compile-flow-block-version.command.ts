import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { BlockGateReport } from '../dto/flow-block-version.response.dto';

export interface CompileResponseBody {
  passed: boolean;
  gateReport: BlockGateReport;
}

export class CompileFlowBlockVersionCommand extends Command<CompileResponseBody> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
  ) {
    super();
  }
}
