import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { FlowsModule } from '../flows';
import { CopyFlowTemplateVersionHandler } from './copy-flow-template-version/copy-flow-template-version.handler';
import { CreateFlowTemplateVersionHandler } from './create-flow-template-version/create-flow-template-version.handler';
import { CreateFlowTemplateHandler } from './create-flow-template/create-flow-template.handler';
import { DeprecateFlowTemplateVersionHandler } from './deprecate-flow-template-version/deprecate-flow-template-version.handler';
import { TemplateVersionValidator } from './domain/template-version-validator';
import { FlowTemplateVersionsController } from './flow-template-versions.controller';
import { FlowTemplatesController } from './flow-templates.controller';
import { GetFlowTemplateVersionHandler } from './get-flow-template-version/get-flow-template-version.handler';
import { GetFlowTemplateHandler } from './get-flow-template/get-flow-template.handler';
import { ListFlowTemplateVersionsHandler } from './list-flow-template-versions/list-flow-template-versions.handler';
import { ListFlowTemplatesHandler } from './list-flow-templates/list-flow-templates.handler';
import { FlowTemplateStore } from './persistence/flow-template.store';
import { ReleaseFlowTemplateVersionHandler } from './release-flow-template-version/release-flow-template-version.handler';
import { TemplateCatalogSeeder } from './seed-template-catalog/template-catalog-seeder';
import { UpdateFlowTemplateHandler } from './update-flow-template/update-flow-template.handler';
import { ValidateFlowTemplateVersionHandler } from './validate-flow-template-version/validate-flow-template-version.handler';

/**
 * Flow templates: global, versioned starting points for flows (platform administrators write, every signed-in user
 * reads), validated and released with the flows' own rules, copied into a tenant's flow as a draft that records its
 * source; and the seeder of the starter catalog shipped in `templates/`.
 */
@Module({
  imports: [PaginationModule, FlowsModule],
  controllers: [FlowTemplatesController, FlowTemplateVersionsController],
  providers: [
    FlowTemplateStore,
    TemplateVersionValidator,
    CreateFlowTemplateHandler,
    UpdateFlowTemplateHandler,
    GetFlowTemplateHandler,
    ListFlowTemplatesHandler,
    CreateFlowTemplateVersionHandler,
    GetFlowTemplateVersionHandler,
    ListFlowTemplateVersionsHandler,
    ValidateFlowTemplateVersionHandler,
    ReleaseFlowTemplateVersionHandler,
    DeprecateFlowTemplateVersionHandler,
    CopyFlowTemplateVersionHandler,
    TemplateCatalogSeeder,
  ],
  exports: [TemplateCatalogSeeder],
})
export class FlowTemplatesModule {}
