import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ActionsModule } from '../actions';
import { DeviceTypesModule } from '../device-types';
import { IngestionModule } from '../ingestion';
import { ActivateFlowHandler } from './activate-flow/activate-flow.handler';
import { CreateFixtureHandler } from './create-fixture/create-fixture.handler';
import { DeleteFixtureHandler } from './delete-fixture/delete-fixture.handler';
import { DeleteParameterOverrideHandler } from './delete-parameter-override/delete-parameter-override.handler';
import { FixtureRepository } from './persistence/fixture.repository';
import { ParameterOverrideRepository } from './persistence/parameter-override.repository';
import { FlowFixturesController } from './flow-fixtures.controller';
import { FlowParametersController } from './flow-parameters.controller';
import { GetFixtureHandler } from './get-fixture/get-fixture.handler';
import { GetResolvedParametersHandler } from './get-resolved-parameters/get-resolved-parameters.handler';
import { ListFixturesHandler } from './list-fixtures/list-fixtures.handler';
import { ListParameterOverridesHandler } from './list-parameter-overrides/list-parameter-overrides.handler';
import { ReplaceFixtureHandler } from './replace-fixture/replace-fixture.handler';
import { SetParameterOverrideHandler } from './set-parameter-override/set-parameter-override.handler';
import { CreateFlowHandler } from './create-flow/create-flow.handler';
import { CreateFlowVersionHandler } from './create-flow-version/create-flow-version.handler';
import { DeprecateFlowVersionHandler } from './deprecate-flow-version/deprecate-flow-version.handler';
import { FlowRepository } from './persistence/flow.repository';
import { FlowValidator } from './domain/flow-validator';
import { FlowVersionStore } from './persistence/flow-version.store';
import { BLOCK_VERSION_LOOKUP } from './domain/graph/block-version-lookup';
import { StoredCustomBlocks } from './domain/graph/custom-block-lookup';
import { FlowVersionsController } from './flow-versions.controller';
import { FlowsController } from './flows.controller';
import { FlowDebugCaptureController } from './flow-debug-capture.controller';
import { EndDebugCaptureHandler } from './end-debug-capture/end-debug-capture.handler';
import { GetDebugCaptureHandler } from './get-debug-capture/get-debug-capture.handler';
import { DebugCaptureStore } from './persistence/debug-capture.store';
import { StartDebugCaptureHandler } from './start-debug-capture/start-debug-capture.handler';
import { FlowRunsController } from './flow-runs.controller';
import { FlowPreviewRunner } from './domain/flow-preview-runner';
import { FlowVersionPlanner } from './domain/flow-version-planner';
import { FlowEngineModule } from './engine';
import { PreviewFlowHandler } from './preview-flow/preview-flow.handler';
import { RunFixturesHandler } from './run-fixtures/run-fixtures.handler';
import { GetDeviceTypeFlowHandler } from './get-device-type-flow/get-device-type-flow.handler';
import { GetFlowHandler } from './get-flow/get-flow.handler';
import { GetFlowVersionHandler } from './get-flow-version/get-flow-version.handler';
import { ListFlowVersionsHandler } from './list-flow-versions/list-flow-versions.handler';
import { ListFlowsHandler } from './list-flows/list-flows.handler';
import { ReleaseFlowVersionHandler } from './release-flow-version/release-flow-version.handler';
import { UpdateFlowHandler } from './update-flow/update-flow.handler';
import { ValidateFlowVersionHandler } from './validate-flow-version/validate-flow-version.handler';

/**
 * Telemetry flows: one per device type, immutable graph versions, validation, release, activation and rollback,
 * fixtures, parameter overrides, fixture runs and previews (through the flow engine; nothing stored or sent).
 * Custom blocks are looked up through `BLOCK_VERSION_LOOKUP` (the stored block versions) and e-mail templates
 * through the actions module's `EMAIL_TEMPLATE_LOOKUP`.
 */
@Module({
  imports: [PaginationModule, DeviceTypesModule, FlowEngineModule, ActionsModule, IngestionModule],
  controllers: [FlowsController, FlowVersionsController, FlowFixturesController, FlowParametersController, FlowRunsController, FlowDebugCaptureController],
  providers: [
    FlowRepository,
    FlowVersionStore,
    FlowValidator,
    { provide: BLOCK_VERSION_LOOKUP, useClass: StoredCustomBlocks },
    CreateFlowHandler,
    GetDeviceTypeFlowHandler,
    ListFlowsHandler,
    GetFlowHandler,
    UpdateFlowHandler,
    ActivateFlowHandler,
    CreateFlowVersionHandler,
    GetFlowVersionHandler,
    ListFlowVersionsHandler,
    ValidateFlowVersionHandler,
    ReleaseFlowVersionHandler,
    DeprecateFlowVersionHandler,
    FixtureRepository,
    ListFixturesHandler,
    CreateFixtureHandler,
    GetFixtureHandler,
    ReplaceFixtureHandler,
    DeleteFixtureHandler,
    ParameterOverrideRepository,
    ListParameterOverridesHandler,
    SetParameterOverrideHandler,
    DeleteParameterOverrideHandler,
    GetResolvedParametersHandler,
    FlowVersionPlanner,
    FlowPreviewRunner,
    RunFixturesHandler,
    PreviewFlowHandler,
    DebugCaptureStore,
    StartDebugCaptureHandler,
    GetDebugCaptureHandler,
    EndDebugCaptureHandler,
  ],
  exports: [FlowVersionPlanner, FlowEngineModule, FlowRepository, FlowVersionStore, FlowValidator, DebugCaptureStore],
})
export class FlowsModule {}
