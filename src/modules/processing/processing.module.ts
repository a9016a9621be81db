import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { FlowsModule } from '../flows/flows.module';
import { FlowExecutionsController } from './executions/flow-executions.controller';
import { GetFlowExecutionHandler } from './executions/get-flow-execution/get-flow-execution.handler';
import { ListFlowExecutionsHandler } from './executions/list-flow-executions/list-flow-executions.handler';

/** What processing raw messages leaves behind and how flows are re-run over them: executions and replays. */
@Module({
  imports: [PaginationModule, FlowsModule],
  controllers: [FlowExecutionsController],
  providers: [ListFlowExecutionsHandler, GetFlowExecutionHandler],
})
export class ProcessingModule {}
