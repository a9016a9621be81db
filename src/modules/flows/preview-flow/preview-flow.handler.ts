import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FlowInput } from '../engine';
import { ExecutionResultResponse } from '../dto/execution-result.response.dto';
import { inputMismatchViolations, inputViolations } from '../domain/fixture-input';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowPreviewRunner } from '../domain/flow-preview-runner';
import { PreviewFlowQuery } from './preview-flow.query';

/** One execution of a version of any status on a complete input (`mode` `preview`); nothing stored or sent. */
@QueryHandler(PreviewFlowQuery)
export class PreviewFlowHandler implements IQueryHandler<PreviewFlowQuery, ExecutionResultResponse> {
  constructor(
    private readonly flows: FlowRepository,
    private readonly runner: FlowPreviewRunner,
  ) {}

  async execute({ caller, flowId, body }: PreviewFlowQuery): Promise<ExecutionResultResponse> {
    const shape = inputViolations(body.input, 'body.input', 'preview');
    if (shape.length > 0) throw new ValidationFailedError(shape);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const mismatch = inputMismatchViolations(body.input, flow.tenantId, flow.deviceTypeId);
    if (mismatch.length > 0) throw new ValidationFailedError(mismatch);
    const version = await this.runner.findVersion(flowId, body.flowVersionId);
    const prepared = await this.runner.prepare(flow, version);
    return ExecutionResultResponse.of(await this.runner.run(flow, prepared, body.input as FlowInput, 'preview'));
  }
}
