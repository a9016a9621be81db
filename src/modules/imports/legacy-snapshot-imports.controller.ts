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
import { IMPORT_PARAMETER_EXAMPLES, IMPORT_SCHEMA_EXAMPLES, IMPORT_SOURCE_FAILURE_EXAMPLE, IMPORT_SOURCE_FAILURE_SCHEMA } from './imports.examples';
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
        description:
          '`DEPENDENCY_FAILURE` (`dependency` `import_source`), nothing persisted; `reason`: `source_unreachable` (no connection, or a 5xx answer), `source_timeout` (10 s per call, 60 s in all), `source_authentication_failed` (401 or 403), `source_invalid_response` (another status, a redirect, a broken-off, non-JSON or misshapen body), `source_too_large` (over 200 tenants, 1,000 device types, 20,000 devices, 16 MiB an answer or 64 MiB in all).',
        content: { 'application/json': { schema: IMPORT_SOURCE_FAILURE_SCHEMA, example: IMPORT_SOURCE_FAILURE_EXAMPLE } },
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
