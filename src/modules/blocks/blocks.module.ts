import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { GetFlowBlockCatalogHandler } from './catalog/flow-block-catalog';
import { BlockConfigurationService } from './domain/block-configuration.service';
import { FlowBlockStore } from './persistence/flow-block.store';
import { FlowBlockVersionsController } from './flow-block-versions.controller';
import {
  CompileFlowBlockVersionHandler,
  CreateFlowBlockVersionHandler,
  DeprecateFlowBlockVersionHandler,
  ReleaseFlowBlockVersionHandler,
} from './flow-block-versions/flow-block-version.commands';
import { GetFlowBlockVersionHandler, ListFlowBlockVersionsHandler } from './flow-block-versions/flow-block-version.queries';
import { FlowBlocksController } from './flow-blocks.controller';
import { CreateGlobalFlowBlockHandler, CreateTenantFlowBlockHandler, UpdateFlowBlockHandler } from './flow-blocks/flow-block.commands';
import { GetFlowBlockHandler, ListGlobalFlowBlocksHandler, ListTenantFlowBlocksHandler } from './flow-blocks/flow-block.queries';

/**
 * Custom script blocks (global and per tenant), their immutable versions with compile and sandbox gates, and the
 * block catalog. Exports the configuration checks flows use (`BlockConfigurationService.validateConfiguration`).
 */
@Module({
  imports: [PaginationModule, SandboxModule],
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
    ReleaseFlowBlockVersionHandler,
    DeprecateFlowBlockVersionHandler,
    GetFlowBlockCatalogHandler,
  ],
  exports: [BlockConfigurationService, FlowBlockStore],
})
export class BlocksModule {}
