import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { ApiDocs } from '../../shared/http/route-docs';
import { Route, TENANT_NOT_FOUND } from '../../shared/http/routes';
import { TenantNumberParam } from '../tenants';
import { ImportLegacySnapshotParams, ImportLegacySnapshotRequest } from './dto/import-legacy-snapshot.request.dto';
import { ImportResultResponse } from './dto/import-result.response.dto';
import { ImportLegacySnapshotCommand } from './import-legacy-snapshot/import-legacy-snapshot.command';
import { IMPORT_PARAMETER_EXAMPLES, IMPORT_SCHEMA_EXAMPLES, IMPORT_SOURCE_FAILURE_EXAMPLES } from './imports.examples';
import { LEGACY_SNAPSHOT_IMPORTS_DOCS } from './legacy-snapshot-imports.docs';

@ApiTags('imports')
@ApiBearerAuth()
@ApiDocs(LEGACY_SNAPSHOT_IMPORTS_DOCS, { schemas: IMPORT_SCHEMA_EXAMPLES, parameters: IMPORT_PARAMETER_EXAMPLES })
@Controller('v1')
export class LegacySnapshotImportsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Route('post', 'tenants/:tenantNumber/imports/legacy-snapshot', {
    operationId: 'legacySnapshotImports_create',
    platformAdminOnly: true,
    status: 200,
    type: ImportResultResponse,
    description: 'The import’s result (with `?dryRun=true`: what it would be; nothing persisted).',
    badRequest: '`body.baseUrl` `pattern`: not the accepted address of the legacy system; any other request rule.',
    notFound: TENANT_NOT_FOUND,
    conflict: '`tenant_disabled`; `import_in_progress`: another import into the tenant is running.',
    extra: [
      ApiResponse({
        status: 502,
        description: '`DEPENDENCY_FAILURE` (`import_source`): the legacy source failed; `reason` says how. Nothing is persisted.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, examples: IMPORT_SOURCE_FAILURE_EXAMPLES } },
      }),
    ],
  })
  importLegacySnapshot(
    @CurrentPrincipal() principal: Principal,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ImportLegacySnapshotParams,
    @Body() body: ImportLegacySnapshotRequest,
  ): Promise<ImportResultResponse> {
    return this.commandBus.execute(new ImportLegacySnapshotCommand(principal, tenantNumber, body, params.dryRun ?? false));
  }
}
