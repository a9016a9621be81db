import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { ImportLegacySnapshotRequest } from '../dto/import-legacy-snapshot.request.dto';
import type { ImportResultResponse } from '../dto/import-result.response.dto';

export class ImportLegacySnapshotCommand extends Command<ImportResultResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenantNumber: number,
    /** Carries the source credentials: never logged, stored or passed on beyond the source client. */
    readonly input: ImportLegacySnapshotRequest,
    readonly dryRun: boolean,
  ) {
    super();
  }
}
