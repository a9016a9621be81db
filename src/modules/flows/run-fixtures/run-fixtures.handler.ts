import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource, In } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { FlowPreviewRunner } from '../domain/flow-preview-runner';
import { FlowEngine, type FlowInput, type JsonValue } from '../engine';
import type { FixtureRunResponse, FixtureRunResultResponse } from '../dto/fixture-run.response.dto';
import { RunFixturesQuery } from './run-fixtures.query';

/**
 * Runs the flow's fixtures (or the named ones) against a version of any status and evaluates their assertions.
 * Each fixture runs with the declared defaults overlaid by its own `input.parameters`; nothing is stored or sent.
 */
@QueryHandler(RunFixturesQuery)
export class RunFixturesHandler implements IQueryHandler<RunFixturesQuery, FixtureRunResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly runner: FlowPreviewRunner,
    private readonly engine: FlowEngine,
  ) {}

  async execute({ caller, flowId, body }: RunFixturesQuery): Promise<FixtureRunResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const version = await this.runner.findVersion(flowId, body.flowVersionId);
    const fixtures = await this.loadFixtures(flowId, body.fixtureIds);
    const prepared = await this.runner.prepare(flow, version);
    const results: FixtureRunResultResponse[] = [];
    for (const fixture of fixtures) {
      const result = await this.runner.run(flow, prepared, fixture.input as FlowInput, 'fixture');
      const outcome = this.engine.evaluateAssertions(result, fixture.assertions as { path: string; expected: JsonValue }[]);
      results.push({
        fixtureId: fixture.fixtureId,
        name: fixture.name,
        passed: outcome.passed,
        status: result.status,
        assertions: outcome.assertions,
        error: result.error === null ? null : { nodeId: result.error.nodeId, code: result.error.code, message: result.error.message },
      });
    }
    const passed = results.filter((result) => result.passed).length;
    return { flowVersionId: version.versionId, total: results.length, passed, failed: results.length - passed, results };
  }

  /** The named fixtures in the order given (each must be this flow's), else all of the flow's in creation order. */
  private async loadFixtures(flowId: string, fixtureIds: string[] | undefined): Promise<FlowFixtureEntity[]> {
    const manager = this.dataSource.manager;
    if (fixtureIds === undefined) return manager.find(FlowFixtureEntity, { where: { flowId }, order: { createdAt: 'ASC', fixtureId: 'ASC' } });
    const ids = fixtureIds.map((id) => id.toLowerCase());
    const found = new Map((await manager.findBy(FlowFixtureEntity, { flowId, fixtureId: In(ids) })).map((fixture) => [fixture.fixtureId, fixture]));
    const missing = ids.flatMap((id, index) =>
      found.has(id) ? [] : [{ path: `body.fixtureIds[${index}]`, rule: 'reference_not_found' as const, message: 'No fixture of this flow has this id.' }],
    );
    if (missing.length > 0) throw new ValidationFailedError(missing);
    return ids.map((id) => found.get(id)!);
  }
}
