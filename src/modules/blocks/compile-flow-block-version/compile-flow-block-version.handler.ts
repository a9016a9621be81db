import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ScriptSandbox } from '../../sandbox';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { CompileFlowBlockVersionCommand, CompileResponseBody } from './compile-flow-block-version.command';
import { issuesOf } from '../domain/gate-issues';

/** The compile gate alone: nothing is stored, whatever the outcome. */
@CommandHandler(CompileFlowBlockVersionCommand)
export class CompileFlowBlockVersionHandler implements ICommandHandler<CompileFlowBlockVersionCommand, CompileResponseBody> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
    private readonly sandbox: ScriptSandbox,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: CompileFlowBlockVersionCommand): Promise<CompileResponseBody> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowBlockId, flowBlockVersionId);
    const started = Date.now();
    const compiled = await this.sandbox.compile(String(version.row.source_code));
    const issues = compiled.ok ? [] : issuesOf(compiled.issues);
    return {
      passed: compiled.ok,
      gateReport: { compile: compiled.ok ? 'passed' : 'failed', sandbox: 'not_run', durationMs: Date.now() - started, issues },
    };
  }
}
