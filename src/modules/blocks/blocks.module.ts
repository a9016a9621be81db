import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { IngestionModule } from '../ingestion';
import { SandboxModule } from '../sandbox';
import { GetFlowBlockCatalogHandler } from './get-flow-block-catalog/get-flow-block-catalog.handler';
import { BlockConfigurationService } from './domain/block-configuration.service';
import { FlowBlockStore } from './persistence/flow-block.store';
import { FlowBlockVersionsController } from './flow-block-versions.controller';
import { CompileFlowBlockVersionHandler } from './compile-flow-block-version/compile-flow-block-version.handler';
import { CreateFlowBlockVersionHandler } from './create-flow-block-version/create-flow-block-version.handler';
import { DeprecateFlowBlockVersionHandler } from './deprecate-flow-block-version/deprecate-flow-block-version.handler';
import { ReleaseFlowBlockVersionHandler } from './release-flow-block-version/release-flow-block-version.handler';
import { RunFlowBlockVersionHandler } from './run-flow-block-version/run-flow-block-version.handler';
import { GetFlowBlockVersionHandler } from './get-flow-block-version/get-flow-block-version.handler';
import { ListFlowBlockVersionsHandler } from './list-flow-block-versions/list-flow-block-versions.handler';
import { FlowBlocksController } from './flow-blocks.controller';
import { CreateGlobalFlowBlockHandler, CreateTenantFlowBlockHandler } from './create-flow-block/create-flow-block.handler';
import { UpdateFlowBlockHandler } from './update-flow-block/update-flow-block.handler';
import { GetFlowBlockHandler } from './get-flow-block/get-flow-block.handler';
import { ListGlobalFlowBlocksHandler, ListTenantFlowBlocksHandler } from './list-flow-blocks/list-flow-blocks.handler';

/**
 * Custom script blocks (global and per tenant), their immutable versions with compile and sandbox gates, and the
 * block catalog. Exports the configuration checks flows use (`BlockConfigurationService.validateConfiguration`).
 */
@Module({
  imports: [PaginationModule, SandboxModule, IngestionModule],
  controllers: [FlowBlocksController, FlowBlockVersionsController],
  providers: [
    FlowBlockStore,
    BlockConfigurationService,
    ListGlobalFlowBlocksHandler,
    ListTenantFlowBlocksHandler,
    GetFlowBlockHandler,
    CreateGlobalFlowBlockHandler,
    CreateTenantFlowBlockHandler,
    UpdateFlowBlockHandler,
    ListFlowBlockVersionsHandler,
    GetFlowBlockVersionHandler,
    CreateFlowBlockVersionHandler,
    CompileFlowBlockVersionHandler,
    RunFlowBlockVersionHandler,
    ReleaseFlowBlockVersionHandler,
    DeprecateFlowBlockVersionHandler,
    GetFlowBlockCatalogHandler,
  ],
  exports: [BlockConfigurationService, FlowBlockStore],
})
export class BlocksModule {}
